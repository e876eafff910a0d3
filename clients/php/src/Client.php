<?php
declare(strict_types=1);

namespace Plinth;

use GuzzleHttp\Client as Guzzle;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Psr7\Request;
use Plinth\Generated\ApiException;
use Plinth\Generated\Configuration;
use Plinth\Generated\ObjectSerializer;

/**
 * The Plinth client: one method per operation, grouped by resource, over the generated API classes
 * (Plinth\Generated\Api\*) on a Guzzle client that retries, keys every POST and records each Request-Id (Http).
 *
 *   $plinth = new Plinth\Client('sk_test_…', 'http://127.0.0.1:8080');
 *   $account = $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
 *   foreach ($plinth->accounts->list(limit: 100) as $a) { echo $a->getId(), "\n"; }
 */
final class Client
{
    // $this->accounts, $this->transfers, …: one property per resource (Resources.php, generated).
    use Resources;

    public const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
    public const DEFAULT_TIMEOUT = 30.0;
    public const DEFAULT_MAX_RETRIES = 3;

    public readonly Guzzle $http;
    public readonly Configuration $config;
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
        $this->http = Http::create(
            $timeout,
            $maxRetries,
            $baseDelay,
            function (): void {
                $this->retries++;
            },
            function (string $id): void {
                $this->lastRequestId = $id;
            },
        );
        $this->initResources();
    }

    /** POST /v1/sandbox/signup (no key): a new sandbox organisation and its first key (getApiKey()->getKey(), a string). */
    public static function signUp(string $baseUrl = self::DEFAULT_BASE_URL, ?string $name = null): Model\SandboxSignup
    {
        $anonymous = new self(null, $baseUrl);
        $api = new Generated\Api\APIKeysApi($anonymous->http, $anonymous->config);
        $request = new Generated\Model\SandboxSignupRequest($name === null ? [] : ['name' => $name]);
        [$signup, $headers] = $anonymous->callWithHeaders(static fn () => $api->sandboxSignupWithHttpInfo($request));
        return Model\SandboxSignup::of($signup, self::replayed($headers));
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
        return $this->callWithHeaders($call)[0];
    }

    /**
     * Like call(), with the response headers too.
     * @return array{0: mixed, 1: array<string, list<string>>}
     */
    public function callWithHeaders(callable $call): array
    {
        try {
            [$data, , $headers] = $call();
            return [$data, $headers];
        } catch (ApiException $e) {
            throw PlinthException::fromApiException($e);
        }
    }

    /** Whether response headers mark an idempotent replay of an earlier answer (Idempotent-Replayed: true). */
    public static function replayed(array $headers): bool
    {
        foreach ($headers as $name => $values) {
            if (strcasecmp((string) $name, 'Idempotent-Replayed') === 0) {
                return in_array('true', (array) $values, true);
            }
        }
        return false;
    }

    /**
     * The lowest level: any method and path with any JSON body (an array or a model), decoded into an array, or
     * into $type (a generated model class) when given. Retries, idempotency keys and errors work as everywhere.
     * For what the typed methods do not know yet.
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
}
