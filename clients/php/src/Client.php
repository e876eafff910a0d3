<?php
declare(strict_types=1);

namespace Plinth;

use GuzzleHttp\Client as Guzzle;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\Psr7\Request;
use Plinth\Generated\ApiException;
use Plinth\Generated\Configuration;
use Plinth\Generated\ObjectSerializer;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * The Plinth client: the generated API classes (Plinth\Generated\Api\*) on a Guzzle client whose handler stack
 * drops Content-Type from requests without a body, adds one Idempotency-Key per authenticated POST (the same on every attempt), retries connection errors,
 * 409 idempotency_request_in_progress, 429 and 5xx honouring Retry-After, and records each Request-Id.
 *
 *   $plinth = new Plinth\Client('sk_test_…', 'http://127.0.0.1:8080');
 *   $account = $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
 *   foreach ($plinth->accounts->list(100) as $a) { echo $a->getId(), "\n"; }
 */
final class Client
{
    public const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
    public const DEFAULT_TIMEOUT = 30.0;
    public const DEFAULT_MAX_RETRIES = 3;

    public readonly Guzzle $http;
    public readonly Configuration $config;
    public readonly Accounts $accounts;
    public readonly ApiKeys $apiKeys;
    public readonly Transfers $transfers;
    /** Simulations that only sandbox keys may run. */
    public readonly Sandbox $sandbox;
    private ?string $lastRequestId = null;
    private int $retries = 0;

    public function __construct(
        ?string $apiKey,
        string $baseUrl = self::DEFAULT_BASE_URL,
        float $timeout = self::DEFAULT_TIMEOUT,
        int $maxRetries = self::DEFAULT_MAX_RETRIES,
        float $baseDelay = 0.5,
    ) {
        $this->config = (new Configuration())->setHost(rtrim($baseUrl, '/'));
        if ($apiKey !== null) {
            $this->config->setAccessToken($apiKey);
        }
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
            fn (int $retries, RequestInterface $req, ?ResponseInterface $res = null, ?\Throwable $err = null): bool
                => $retries < $maxRetries && $this->shouldRetry($req, $res, $err),
            fn (int $retries, ?ResponseInterface $res = null): int => $this->delayMs($retries, $res, $baseDelay),
        ), 'plinth_retry');
        // 3. Innermost: every attempt's Request-Id.
        $stack->push(Middleware::mapResponse(function (ResponseInterface $r): ResponseInterface {
            if ($r->hasHeader('Request-Id')) {
                $this->lastRequestId = $r->getHeaderLine('Request-Id');
            }
            return $r;
        }), 'plinth_request_id');
        $this->http = new Guzzle(['handler' => $stack, 'timeout' => $timeout, 'connect_timeout' => $timeout]);
        $transactions = new Generated\Api\FintechTransactionsApi($this->http, $this->config);
        $this->accounts = new Accounts($this, new Generated\Api\FintechAccountsApi($this->http, $this->config), $transactions);
        $this->apiKeys = new ApiKeys($this, new Generated\Api\APIKeysApi($this->http, $this->config));
        $this->transfers = new Transfers($this, new Generated\Api\FintechTransfersApi($this->http, $this->config));
        $this->sandbox = new Sandbox($this, $transactions);
    }

    /** POST /v1/sandbox/signup (no key): a new sandbox organisation and its first key. */
    public static function signup(string $baseUrl = self::DEFAULT_BASE_URL, ?string $name = null): Generated\Model\SandboxSignup
    {
        $anonymous = new self(null, $baseUrl);
        $api = new Generated\Api\APIKeysApi($anonymous->http, $anonymous->config);
        $request = new Generated\Model\SandboxSignupRequest($name === null ? [] : ['name' => $name]);
        return $anonymous->call(static fn () => $api->sandboxSignupWithHttpInfo($request));
    }

    /** The Request-Id of the last response (success or error). */
    public function lastRequestId(): ?string
    {
        return $this->lastRequestId;
    }

    /** How many retries this client has made so far. */
    public function retryCount(): int
    {
        return $this->retries;
    }

    /**
     * Runs a generated *WithHttpInfo call: its data, or one PlinthException.
     * @template T
     * @param callable(): array{0: T, 1: int, 2: array} $call
     * @return T
     */
    public function call(callable $call): mixed
    {
        try {
            [$data] = $call();
            return $data;
        } catch (ApiException $e) {
            throw PlinthException::fromApiException($e);
        }
    }

    /**
     * The lowest level: any method and path with any JSON body (an array or a model), decoded into an array, or
     * into $type (a generated model class) when given. Retries, idempotency keys and errors work as everywhere.
     */
    public function request(string $method, string $path, mixed $body = null, ?string $type = null, ?string $idempotencyKey = null): mixed
    {
        $headers = ['Accept' => 'application/json'];
        if ($this->config->getAccessToken() !== '') {
            $headers['Authorization'] = 'Bearer ' . $this->config->getAccessToken();
        }
        if ($idempotencyKey !== null) {
            $headers['Idempotency-Key'] = $idempotencyKey;
        }
        $payload = null;
        if ($body !== null) {
            $headers['Content-Type'] = 'application/json';
            $payload = json_encode(ObjectSerializer::sanitizeForSerialization($body), JSON_THROW_ON_ERROR);
        }
        try {
            $response = $this->http->send(new Request($method, $this->config->getHost() . $path, $headers, $payload));
        } catch (RequestException $e) {
            $r = $e->getResponse();
            if ($r === null) {
                throw new PlinthException(0, 'connection_error', title: 'Connection error', detail: $e->getMessage(), previous: $e);
            }
            throw PlinthException::fromResponse($r->getStatusCode(), (string) $r->getBody(), $r->getHeaders(), $e);
        } catch (GuzzleException $e) {
            throw new PlinthException(0, 'connection_error', title: 'Connection error', detail: $e->getMessage(), previous: $e);
        }
        $text = (string) $response->getBody();
        if ($type !== null) {
            return ObjectSerializer::deserialize(json_decode($text), $type, []);
        }
        return $text === '' ? null : json_decode($text, true, 512, JSON_THROW_ON_ERROR);
    }

    /**
     * Auto-pagination over any list: starting_after = the last id while has_more.
     * @param callable(?string): object $fetch one page, given the cursor
     */
    public static function paginate(callable $fetch): \Generator
    {
        $after = null;
        while (true) {
            $page = $fetch($after);
            $items = $page->getData() ?? [];
            foreach ($items as $item) {
                yield $item;
            }
            if (!$page->getHasMore() || $items === []) {
                return;
            }
            $after = $items[count($items) - 1]->getId();
        }
    }

    private function shouldRetry(RequestInterface $req, ?ResponseInterface $res, ?\Throwable $err): bool
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

    private function delayMs(int $retries, ?ResponseInterface $res, float $baseDelay): int
    {
        $this->retries++;
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
