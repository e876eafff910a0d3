<?php
declare(strict_types=1);

namespace Plinth;

use GuzzleHttp\Client as Guzzle;
use GuzzleHttp\Exception\GuzzleException;
use Plinth\Generated\Model\Event;
use Plinth\Generated\ObjectSerializer;
use Psr\Http\Message\StreamInterface;

/**
 * The live event stream (GET /v1/events/stream, Server-Sent Events; docs/api.md#the-live-event-stream) as a
 * Generator that resumes by itself: $plinth->events->stream(). Hand-written transport: a plain Guzzle client with
 * 'stream' => true (no retrying middleware, no overall timeout). Each event carries its sequence, gap-free per
 * organisation and mode; after any disconnection (a network failure, the server restarting or ending the stream) it
 * reconnects with Last-Event-ID set to the last sequence it saw, so every event comes once, in order. Stop with
 * `break` (the connection ends with the generator). A refusal that waiting will not change (a revoked key: 401; a
 * bad parameter: 400) throws PlinthException; 429 and 5xx are waited out (Retry-After, else backoff).
 */
final class EventStream
{
    private const FIRST_DELAY = 0.25;
    private const MAX_DELAY = 8.0;
    /** The server writes a comment every 15 s: a connection silent for much longer than that is dead. */
    private const READ_TIMEOUT = 45.0;

    private float $firstDelay = self::FIRST_DELAY;
    /** @var array{id?: string, event?: string, data?: string} */
    private array $message = [];
    private ?Event $next = null;

    /** @param (callable(int, int): void)|null $onGap */
    private function __construct(
        private readonly string $url,
        private readonly ?string $apiKey,
        private ?int $last,
        private $onGap,
    ) {
    }

    /**
     * @param (callable(int, int): void)|null $onGap told (from, to) when the starting point is older than retention
     * @return \Generator<int, Event>
     */
    public static function open(string $baseUrl, ?string $apiKey, ?string $type, ?int $after, ?callable $onGap): \Generator
    {
        $url = rtrim($baseUrl, '/') . '/v1/events/stream' . ($type === null ? '' : '?' . http_build_query(['type' => $type]));
        return (new self($url, $apiKey, $after, $onGap))->run();
    }

    /** @return \Generator<int, Event> */
    private function run(): \Generator
    {
        $http = new Guzzle(['http_errors' => false, 'allow_redirects' => false]);
        $delay = $this->firstDelay;
        while (true) {
            $headers = ['Accept' => 'text/event-stream', 'User-Agent' => 'plinth-php'];
            if ($this->apiKey !== null && $this->apiKey !== '') {
                $headers['Authorization'] = 'Bearer ' . $this->apiKey;
            }
            if ($this->last !== null) {
                $headers['Last-Event-ID'] = (string) $this->last;
            }
            $wait = null;
            try {
                $response = $http->request('GET', $this->url, [
                    'headers' => $headers,
                    'stream' => true,
                    'connect_timeout' => 30,
                    'read_timeout' => self::READ_TIMEOUT,
                ]);
                $status = $response->getStatusCode();
                $body = $response->getBody();
                if ($status === 429 || $status >= 500) {
                    $body->close();
                    $after = $response->getHeaderLine('Retry-After');
                    $wait = ctype_digit($after) && (int) $after > 0 ? (float) $after : null;
                } elseif ($status !== 200) {
                    throw PlinthException::fromResponse($status, (string) $body, $response->getHeaders());
                } else {
                    $delay = $this->firstDelay;
                    try {
                        $this->message = [];
                        foreach ($this->events($body) as $event) {
                            yield $event;
                        }
                    } finally {
                        $body->close();
                    }
                    $delay = $this->firstDelay; // a retry field may have changed it
                }
            } catch (GuzzleException | \RuntimeException $e) {
                if ($e instanceof PlinthException) {
                    throw $e;
                }
                // refused or dropped: reconnect from $this->last
            }
            usleep((int) (($wait ?? $delay) * 1e6));
            if ($wait === null) {
                $delay = min($delay * 2, self::MAX_DELAY);
            }
        }
    }

    /**
     * The events of one response as they arrive. Lines end with \n, \r\n or \r; a line starting with ':' is a
     * comment; several data lines join with \n; retry sets the reconnection delay. Read with fgets on the detached
     * resource: the http wrapper's fread waits for a full buffer (or the read timeout), fgets returns each line as
     * it comes (so a lone \r is recognised once a \n follows it).
     * @return \Generator<int, Event>
     */
    private function events(StreamInterface $body): \Generator
    {
        $resource = $body->detach();
        if ($resource === null) {
            return;
        }
        try {
            $buffered = '';
            while (($chunk = fgets($resource)) !== false) {
                $buffered .= $chunk;
                while (preg_match('/\r\n|\r(?=[^\n])|\n/', $buffered, $m, PREG_OFFSET_CAPTURE) === 1) {
                    [$end, $at] = $m[0];
                    $line = substr($buffered, 0, $at);
                    $buffered = substr($buffered, $at + strlen($end));
                    $this->field($line);
                    if ($this->next !== null) {
                        $event = $this->next;
                        $this->next = null;
                        yield $event;
                    }
                }
            }
            // false: the end of the stream, or silent for READ_TIMEOUT (dead): either way, reconnect
        } finally {
            fclose($resource);
        }
    }

    private function field(string $line): void
    {
        if ($line === '') {
            $this->dispatch();
            return;
        }
        if ($line[0] === ':') {
            return;
        }
        [$name, $value] = str_contains($line, ':') ? explode(':', $line, 2) : [$line, ''];
        if (str_starts_with($value, ' ')) {
            $value = substr($value, 1);
        }
        switch ($name) {
            case 'id':
                if (!str_contains($value, "\0")) {
                    $this->message['id'] = $value;
                }
                break;
            case 'event':
                $this->message['event'] = $value;
                break;
            case 'data':
                $this->message['data'] = isset($this->message['data']) ? $this->message['data'] . "\n" . $value : $value;
                break;
            case 'retry':
                if (preg_match('/^\d{1,9}$/', $value) === 1) {
                    $this->firstDelay = (int) $value / 1000;
                }
                break;
        }
    }

    private function dispatch(): void
    {
        $message = $this->message;
        $this->message = [];
        if (isset($message['id']) && preg_match('/^\d{1,18}$/', $message['id']) === 1) {
            $this->last = (int) $message['id'];
        }
        if (!isset($message['data'])) {
            return;
        }
        if (($message['event'] ?? null) === 'gap') {
            $gone = json_decode($message['data'], true, 512, JSON_THROW_ON_ERROR);
            if ($this->onGap !== null) {
                ($this->onGap)((int) $gone['from'], (int) $gone['to']);
            }
            return;
        }
        /** @var Event $event */
        $event = ObjectSerializer::deserialize(json_decode($message['data'], false, 512, JSON_THROW_ON_ERROR), Event::class, []);
        $this->next = $event;
    }
}
