<?php
declare(strict_types=1);

namespace Plinth\Model;

use Plinth\Generated\Model\SandboxSignup as Generated;

/** A sandbox sign-up: getOrgId(), and getApiKey(), a Plinth\Model\NewApiKey whose getKey() is a string. */
final class SandboxSignup extends Generated
{
    public static function of(Generated $answer, bool $replayed): self
    {
        $self = new self();
        $self->container = $answer->container;
        $self->openAPINullablesSetToNull = $answer->openAPINullablesSetToNull;
        $self->container['api_key'] = NewApiKey::of($answer->getApiKey(), $replayed);
        return $self;
    }

    public function getApiKey(): NewApiKey
    {
        return $this->container['api_key'];
    }
}
