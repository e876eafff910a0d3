<?php
// methods.json names the layer's method(s) for each operation of the SDK view (clients/openapi.sdk.json); the
// coverage command reads it. This test keeps it honest, by reflection: every name it lists is a public method of
// the layer, every public method of a resource class is listed, and every operationId it names exists.
declare(strict_types=1);

require __DIR__ . '/../autoload.php';

use Plinth\Client;
use Plinth\Resource;

$manifest = json_decode((string) file_get_contents(__DIR__ . '/../methods.json'), true, 512, JSON_THROW_ON_ERROR);
$client = new Client('sk_test_manifest', 'http://127.0.0.1:9');
$problems = [];

// "accounts.listPage" → $client->accounts's listPage; "Plinth\Client::signUp" → a static method.
$resolve = static function (string $name) use ($client): ReflectionMethod {
    if (str_contains($name, '::')) {
        [$class, $method] = explode('::', $name, 2);
        $m = new ReflectionMethod($class, $method);
        if (!$m->isStatic()) {
            throw new ReflectionException("$name is not static");
        }
        return $m;
    }
    $path = explode('.', $name);
    $method = array_pop($path);
    $target = $client;
    foreach ($path as $property) {
        $target = (new ReflectionProperty($target, $property))->getValue($target);
    }
    return new ReflectionMethod($target, $method);
};

$listed = [];
$checked = 0;
foreach ($manifest as $operation => $names) {
    if ($names === []) {
        $problems[] = "$operation names no method";
    }
    foreach ($names as $name) {
        $listed[] = $name;
        try {
            $m = $resolve($name);
            if (!$m->isPublic() || !str_starts_with($m->getDeclaringClass()->getName(), 'Plinth\\')) {
                $problems[] = "$operation: $name is not a public method of the layer";
            }
            $checked++;
        } catch (ReflectionException $e) {
            $problems[] = "$operation: $name does not exist ({$e->getMessage()})";
        }
    }
}

// The event stream is no operation of the SDK view (Server-Sent Events are hand-written transport), so the manifest
// cannot name it.
$listed[] = 'events.stream';
$resources = 0;
foreach ((new ReflectionClass($client))->getProperties(ReflectionProperty::IS_PUBLIC) as $property) {
    $resource = $property->getValue($client);
    if (!$resource instanceof Resource) {
        continue;
    }
    $resources++;
    foreach ((new ReflectionClass($resource))->getMethods(ReflectionMethod::IS_PUBLIC) as $m) {
        if ($m->getDeclaringClass()->getName() === get_class($resource) && !$m->isConstructor()) {
            $name = $property->getName() . '.' . $m->getName();
            if (!in_array($name, $listed, true)) {
                $problems[] = "$name is not in methods.json";
            }
        }
    }
}
if ($resources < 8) {
    $problems[] = "only $resources resources found on the client";
}

$spec = json_decode((string) file_get_contents(__DIR__ . '/../../openapi.sdk.json'), true, 512, JSON_THROW_ON_ERROR);
$known = [];
foreach ($spec['paths'] as $operations) {
    foreach ($operations as $op) {
        if (is_array($op) && isset($op['operationId'])) {
            $known[] = $op['operationId'];
        }
    }
}
foreach (array_diff(array_keys($manifest), $known) as $unknown) {
    $problems[] = "methods.json names $unknown, which the SDK view does not have";
}

foreach ($problems as $p) {
    echo "FAIL methods: $p\n";
}
echo $problems === [] ? "ok   methods.json: $checked methods of " . count($manifest) . " operations, all in the layer, none unlisted\n" : '';
exit($problems === [] ? 0 : 1);
