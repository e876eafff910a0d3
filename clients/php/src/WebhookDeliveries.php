<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\WebhookDelivery;

/** One event sent to one endpoint. */
final class WebhookDeliveries extends Resource
{
    /** One attempt now, outside the schedule: the delivery. */
    public function retry(string $id, ?string $idempotencyKey = null): WebhookDelivery
    {
        return $this->client->call(fn () => $this->api->retryWebhookDeliveryWithHttpInfo($id, $idempotencyKey));
    }
}
