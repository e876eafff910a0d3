/**
 * The resource groups a key's permissions are given in (docs/api.md#restricted-keys), each `none`, `read` or
 * `write` (write includes read). Every operation declares the group and level it needs, beside its schema.
 */
export const PERMISSION_GROUPS = [
  'accounts',
  'transfers',
  'transactions',
  'sandbox',
  'events',
  'webhook_endpoints',
  'api_keys',
  'requests',
] as const;

export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export type Level = 'read' | 'write';

/** What a key must hold to call an operation; `public`: no key at all (the sandbox sign-up). */
export type Permission = { group: PermissionGroup; level: Level } | 'public';

export const needs = (group: PermissionGroup, level: Level): Permission => ({ group, level });
