<?php
/**
 * Loads the Plinth PHP client without Composer: Guzzle from Debian's packages (php-guzzlehttp-guzzle installs
 * /usr/share/php/GuzzleHttp/autoload.php, which loads PSR-7, promises and the PSR interfaces too), or from a Composer
 * vendor/ directory when there is one; then PSR-4 for Plinth\Generated\ (generated/lib) and Plinth\ (src).
 *
 *   require '/path/to/clients/php/autoload.php';
 */
declare(strict_types=1);

(static function (): void {
    if (!class_exists(\GuzzleHttp\Client::class)) {
        foreach ([__DIR__ . '/vendor/autoload.php', '/usr/share/php/GuzzleHttp/autoload.php'] as $file) {
            if (is_file($file)) {
                require_once $file;
                break;
            }
        }
    }
    $roots = ['Plinth\\Generated\\' => __DIR__ . '/generated/lib/', 'Plinth\\' => __DIR__ . '/src/'];
    spl_autoload_register(static function (string $class) use ($roots): void {
        foreach ($roots as $prefix => $dir) {
            if (strncmp($class, $prefix, strlen($prefix)) === 0) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require_once $file;
                }
                return;
            }
        }
    });
})();
