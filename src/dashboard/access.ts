import { allows } from '../platform/auth/permissions.ts';
import type { Principal } from '../platform/auth/principal.ts';
import { type Operations, requirePermission } from '../platform/operations/operation.ts';

/**
 * What a session's key may do, by the API's declared operations (docs/api.md#restricted-keys): pages show only what
 * the key may read and offer only the actions it may take. The server still refuses the rest: every read and action
 * runs `requirePermission` (act.ts); `need` is that check for a page that reads through a service of its own.
 */
export interface Access {
  /** Whether the key may call the operation of that operationId. */
  can(operationId: string): boolean;
  /** Refuses, as the API would (403 permission_denied), unless the key may call it. */
  need(operationId: string): void;
}

export function accessOf(operations: Operations, principal: Principal): Access {
  const op = (id: string) => {
    const found = operations.get(id);
    if (found === undefined) throw new Error(`dashboard: no operation ${id}`);
    return found;
  };
  return {
    can: (id) => allows(principal.permissions, op(id).permission),
    need: (id) => requirePermission(principal, op(id)),
  };
}
