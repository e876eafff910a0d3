<?php
/**
 * The scripted server the wire tests share (`php -S` with test/scripted-router.php: each request answered with the
 * next scripted reply, an account by default, and recorded), and their helpers: check, expectError, test.
 */
declare(strict_types=1);

require __DIR__ . '/../autoload.php';

use Plinth\Client;
use Plinth\PlinthException;

final class Scripted
{
    public readonly string $url;
    private string $dir;
    /** @var resource */
    private $process;

    /** @param list<array<string, mixed>> $replies */
    public function __construct(array $replies = [])
    {
        $this->dir = sys_get_temp_dir() . '/plinth-php-scripted-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        file_put_contents("$this->dir/script.json", json_encode($replies));
        touch("$this->dir/seen.jsonl");
        $port = self::freePort();
        $this->url = "http://127.0.0.1:$port";
        $env = ['PLINTH_SCRIPT_DIR' => $this->dir, 'PATH' => getenv('PATH')];
        $this->process = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/scripted-router.php'], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        for ($i = 0; $i < 100; $i++) { // until it listens
            $s = @fsockopen('127.0.0.1', $port);
            if ($s !== false) {
                fclose($s);
                return;
            }
            usleep(20000);
        }
        throw new RuntimeException('php -S did not start');
    }

    public static function freePort(): int
    {
        $s = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($s, false), ':'), 1);
        fclose($s);
        return $port;
    }

    /** @return list<array{0: string, 1: ?string}> */
    public function seen(): array
    {
        return $this->log('seen.jsonl');
    }

    /** What was sent, in order. @return list<array{0: string, 1: string, 2: string}> method, path and query, body */
    public function wire(): array
    {
        return $this->log('wire.jsonl');
    }

    /** The Last-Event-ID of each request (null: none), in order. @return list<?string> */
    public function lastEventIds(): array
    {
        return $this->log('last-event-id.jsonl');
    }

    private function log(string $file): array
    {
        $lines = array_filter(explode("\n", (string) @file_get_contents("$this->dir/$file")));
        return array_values(array_map(static fn ($l) => json_decode($l, true), $lines));
    }

    public function close(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        array_map('unlink', glob("$this->dir/*"));
        rmdir($this->dir);
    }
}

function problem(int $status, string $code, array $headers = []): array
{
    return ['status' => $status, 'code' => $code, 'headers' => $headers];
}

function check(bool $ok, string $what): void
{
    if (!$ok) {
        throw new RuntimeException($what);
    }
}

function expectError(callable $f): PlinthException
{
    try {
        $f();
    } catch (PlinthException $e) {
        return $e;
    }
    throw new RuntimeException('expected a PlinthException');
}

$failures = 0;
function test(string $name, array $replies, callable $body): void
{
    global $failures;
    $server = new Scripted($replies);
    try {
        $body($server, new Client('sk_test_scripted', $server->url, baseDelay: 0.01));
        echo "ok   scripted: $name\n";
    } catch (Throwable $t) {
        $failures++;
        echo "FAIL scripted: $name: " . get_class($t) . ': ' . $t->getMessage() . "\n";
    } finally {
        $server->close();
    }
}
