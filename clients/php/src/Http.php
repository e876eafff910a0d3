<?php
declare(strict_types=1);

namespace Plinth;

use GuzzleHttp\Client as Guzzle;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * The Guzzle client under every call: its handler stack drops Content-Type from requests without a body, adds one
 * Idempotency-Key per authenticated POST (the same on every attempt), retries connection errors, 409
 * idempotency_request_in_progress, 429 and 5xx honouring Retry-After, and reports each Request-Id.
 */
final class Http
{
    /**
     * @param callable(): void $onRetry called before each retry
     * @param callable(string): void $onRequestId called with the Request-Id of every response
     */
    public static function create(float $timeout, int $maxRetries, float $baseDelay, callable $onRetry, callable $onRequestId): Guzzle
    {
        $stack = HandlerStack::create();
        // Guzzle's HandlerStack wraps in push order: what is pushed first runs outermost (http_errors, from
        // create(), stays outside everything here, so the retry below sees plain responses).
        // 1. The Idempotency-Key is added once, outside the retry loop, so every attempt carries the same one.
        $stack->push(Middleware::mapRequest(static function (RequestInterface $r): RequestInterface {
            // The generated HeaderSelector always sets Content-Type: application/json, also on a POST without a
            // body (revoking a key), which Plinth refuses as body_malformed; no body, no Content-Type.
            if ($r->getBody()->getSize() === 0) {
                $r = $r->withoutHeader('Content-Type');
            }
            if ($r->getMethod() === 'POST' && !$r->hasHeader('Idempotency-Key') && $r->hasHeader('Authorization')) {
                return $r->withHeader('Idempotency-Key', self::uuid4());
            }
            return $r;
        }), 'plinth_idempotency_key');
        // 2. Retries.
        $stack->push(Middleware::retry(
            static fn (int $retries, RequestInterface $req, ?ResponseInterface $res = null, ?\Throwable $err = null): bool
                => $retries < $maxRetries && self::shouldRetry($req, $res, $err),
            static function (int $retries, ?ResponseInterface $res = null) use ($baseDelay, $onRetry): int {
                $onRetry();
                return self::delayMs($retries, $res, $baseDelay);
            },
        ), 'plinth_retry');
        // 3. Innermost: every attempt's Request-Id.
        $stack->push(Middleware::mapResponse(static function (ResponseInterface $r) use ($onRequestId): ResponseInterface {
            if ($r->hasHeader('Request-Id')) {
                $onRequestId($r->getHeaderLine('Request-Id'));
            }
            return $r;
        }), 'plinth_request_id');
        return new Guzzle(['handler' => $stack, 'timeout' => $timeout, 'connect_timeout' => $timeout]);
    }

    private static function shouldRetry(RequestInterface $req, ?ResponseInterface $res, ?\Throwable $err): bool
    {
        // A POST without a key (only the unauthenticated sign-up, which refuses one) is retried only where the
        // server cannot have executed it: a refused connection or a 429.
        $safe = $req->getMethod() !== 'POST' || $req->hasHeader('Idempotency-Key');
        if ($res === null) {
            return $err instanceof ConnectException && ($safe || str_contains($err->getMessage(), 'refused'));
        }
        $status = $res->getStatusCode();
        if ($status === 429) {
            return true;
        }
        if (!$safe) {
            return false;
        }
        if ($status >= 500) {
            return true;
        }
        if ($status === 409) {
            $body = $res->getBody();
            $p = json_decode((string) $body, true);
            if ($body->isSeekable()) {
                $body->rewind();
            }
            return is_array($p) && ($p['code'] ?? null) === 'idempotency_request_in_progress';
        }
        return false;
    }

    private static function delayMs(int $retries, ?ResponseInterface $res, float $baseDelay): int
    {
        $after = $res?->getHeaderLine('Retry-After') ?? '';
        if ($after !== '' && ctype_digit(trim($after))) {
            return min((int) trim($after), 60) * 1000;
        }
        $cap = $baseDelay * 1000 * (2 ** min($retries - 1, 10));
        return (int) ($cap / 2 + mt_rand() / mt_getrandmax() * $cap / 2);
    }

    private static function uuid4(): string
    {
        $b = random_bytes(16);
        $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
        $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }
}
