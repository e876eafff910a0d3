import { type Static, Type } from 'typebox';
import { MODULES, type ModuleSettings } from './modules.ts';
import { ConfigError, type Env, parseSettings } from './platform/kit/settings.ts';
import { PlatformSettings } from './platform/settings.ts';

export { ConfigError } from './platform/kit/settings.ts';

export type Config = Static<typeof PlatformSettings> & ModuleSettings;

/** Every setting of the core and of every module, as one schema: what the README's table documents. */
export const SETTINGS = Type.Object(
  Object.assign({}, PlatformSettings.properties, ...MODULES.map((m) => m.settings?.properties ?? {})),
);

/** Everything the process reads from its environment, parsed once at start-up. Throws ConfigError. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const config = parseSettings<Config>(SETTINGS, env, cwd);
  if (config.WEB_CONCURRENCY > 1 && config.DATABASE_URL.startsWith('sqlite:')) {
    throw new ConfigError(
      'WEB_CONCURRENCY',
      'SQLite mode runs one server process; use a postgres:// DATABASE_URL for more',
    );
  }
  if (config.SECRETS_KEY === '' && config.DATABASE_URL.startsWith('postgres')) {
    throw new ConfigError(
      'SECRETS_KEY',
      'required with PostgreSQL: 32 random bytes in base64 (e.g. `openssl rand -base64 32`)',
    );
  }
  return config;
}
