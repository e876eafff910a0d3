/**
 * Restricted keys (docs/api.md#restricted-keys): a key made with permissions holds, for each resource group, `none`,
 * `read` or `write` (write includes read). Every operation declares the group and level it needs, beside its schema
 * (operations/operation.ts), and one check refuses the rest, for the API and the dashboard alike.
 */
export const PERMISSION_GROUPS = [
  'accounts',
  'transfers',
  'transactions',
  'payments',
  'sandbox',
  'events',
  'webhook_endpoints',
  'api_keys',
  'requests',
] as const;

export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export type Level = 'read' | 'write';
export type Granted = 'none' | Level;
export const LEVELS: readonly Granted[] = ['none', 'read', 'write'];

/** What a key must hold to call an operation; `public`: no key at all (the sandbox sign-up). */
export type Permission = { group: PermissionGroup; level: Level } | 'public';

export const needs = (group: PermissionGroup, level: Level): Permission => ({ group, level });

/** A restricted key's permissions, every group listed; a full key has none (`null`) and may do everything. */
export type KeyPermissions = Record<PermissionGroup, Granted>;

const RANK: Record<Granted, number> = { none: 0, read: 1, write: 2 };

/** Whether a key holding `held` may call an operation needing `needed`. */
export function allows(held: KeyPermissions | null, needed: Permission): boolean {
  if (held === null || needed === 'public') return true;
  return RANK[held[needed.group]] >= RANK[needed.level];
}

/** Whether every group of `wanted` is within `held` (a full key, null, holds everything; wants everything too). */
export function within(wanted: KeyPermissions | null, held: KeyPermissions | null): boolean {
  if (held === null) return true;
  if (wanted === null) return false;
  return PERMISSION_GROUPS.every((group) => RANK[wanted[group]] <= RANK[held[group]]);
}

/** `transfers: read`, as a detail names what a key has or an operation needs. */
export const describe = (group: PermissionGroup, level: Granted) => `${group}: ${level}`;

/** A stored value (JSON, or null for a full key) as the permissions it grants; every group present. */
export function parsePermissions(stored: string | null): KeyPermissions | null {
  if (stored === null) return null;
  const given = JSON.parse(stored) as Partial<KeyPermissions>;
  return Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, given[g] ?? 'none'])) as KeyPermissions;
}
