<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\CreateWebhookEndpointRequest;
use Plinth\Generated\Model\DeletedWebhookEndpoint;
use Plinth\Generated\Model\Event;
use Plinth\Generated\Model\RotateWebhookEndpointSecretRequest;
use Plinth\Generated\Model\UpdateWebhookEndpointRequest;
use Plinth\Generated\Model\WebhookDelivery;
use Plinth\Generated\Model\WebhookDeliveryList;
use Plinth\Generated\Model\WebhookEndpoint;
use Plinth\Generated\Model\WebhookEndpointList;
use Plinth\Model\WebhookEndpointWithSecret;

/** Where events are sent, signed (Standard Webhooks; verify deliveries with Plinth\Webhook::verify). */
final class WebhookEndpoints extends Resource
{
    /**
     * The endpoint with its signing secret (getSecret(), a whsec_… string), shown this once.
     * @param array{url: string, enabled_events: list<string>, description?: ?string, metadata?: array<string, string>}|CreateWebhookEndpointRequest $params
     */
    public function create(array|CreateWebhookEndpointRequest $params, ?string $idempotencyKey = null): WebhookEndpointWithSecret
    {
        $body = self::body(CreateWebhookEndpointRequest::class, $params);
        [$endpoint, $headers] = $this->client->callWithHeaders(fn () => $this->api->createWebhookEndpointWithHttpInfo($body, $idempotencyKey));
        return WebhookEndpointWithSecret::of($endpoint, Client::replayed($headers));
    }

    public function retrieve(string $id): WebhookEndpoint
    {
        return $this->client->call(fn () => $this->api->retrieveWebhookEndpointWithHttpInfo($id));
    }

    public function listPage(?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): WebhookEndpointList
    {
        return $this->client->call(fn () => $this->api->listWebhookEndpointsWithHttpInfo($limit, $startingAfter, $endingBefore));
    }

    /** @return \Generator<WebhookEndpoint> */
    public function list(?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($limit, $after));
    }

    /**
     * Any of url, enabled_events, description (null clears it), status (enabled, disabled), metadata (sets the keys
     * given, removes those given ''); clearMetadata: true removes every key.
     * @param array{url?: string, enabled_events?: list<string>, description?: ?string, status?: string, metadata?: array<string, string>}|UpdateWebhookEndpointRequest $params
     */
    public function update(string $id, array|UpdateWebhookEndpointRequest $params = [], bool $clearMetadata = false, ?string $idempotencyKey = null): WebhookEndpoint
    {
        if ($clearMetadata) {
            if (!is_array($params)) {
                throw new \InvalidArgumentException("clearMetadata: true with a request model; set its metadata to ''");
            }
            $params['metadata'] = self::metadataChange($params['metadata'] ?? null, true);
        }
        $body = self::body(UpdateWebhookEndpointRequest::class, $params);
        return $this->client->call(fn () => $this->api->updateWebhookEndpointWithHttpInfo($id, $body, $idempotencyKey));
    }

    /** The endpoint and its deliveries are gone: getDeleted() true. */
    public function delete(string $id): DeletedWebhookEndpoint
    {
        return $this->client->call(fn () => $this->api->deleteWebhookEndpointWithHttpInfo($id));
    }

    /** A new secret; the previous one keeps signing beside it for $expirePreviousInSeconds (the server's default: a day). */
    public function rotateSecret(string $id, ?int $expirePreviousInSeconds = null, ?string $idempotencyKey = null): WebhookEndpointWithSecret
    {
        $fields = $expirePreviousInSeconds === null ? [] : ['expire_previous_in_seconds' => $expirePreviousInSeconds];
        $body = new RotateWebhookEndpointSecretRequest($fields);
        [$endpoint, $headers] = $this->client->callWithHeaders(fn () => $this->api->rotateWebhookEndpointSecretWithHttpInfo($id, $idempotencyKey, $body));
        return WebhookEndpointWithSecret::of($endpoint, Client::replayed($headers));
    }

    /** Sends a webhook_endpoint.test event to this endpoint only: the event. */
    public function test(string $id, ?string $idempotencyKey = null): Event
    {
        return $this->client->call(fn () => $this->api->testWebhookEndpointWithHttpInfo($id, $idempotencyKey));
    }

    /** One page of the endpoint's deliveries; $status filters (pending, succeeded, failed). */
    public function listDeliveriesPage(string $id, ?string $status = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): WebhookDeliveryList
    {
        return $this->client->call(fn () => $this->api->listWebhookEndpointDeliveriesWithHttpInfo($id, $limit, $startingAfter, $endingBefore, $status));
    }

    /** @return \Generator<WebhookDelivery> */
    public function listDeliveries(string $id, ?string $status = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listDeliveriesPage($id, $status, $limit, $after));
    }
}
