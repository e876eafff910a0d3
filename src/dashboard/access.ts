import { allows } from '../platform/auth/permissions.ts';
import type { Principal } from '../platform/auth/principal.ts';
import { type OperationRef, type Operations, requirePermission } from '../platform/operations/operation.ts';

/**
 * What a session's key may do, by the API's declared operations (docs/api.md#restricted-keys): pages show only what
 * the key may read and offer only the actions it may take. The server still refuses the rest: every read and action
 * runs `requirePermission` (act.ts); `need` is that check for a page that reads through a service of its own.
 */
export interface Access {
  /** Whether the key may call the operation (`ops.createTransfer`). */
  can(operation: OperationRef): boolean;
  /** Refuses, as the API would (403 permission_denied), unless the key may call it. */
  need(operation: OperationRef): void;
}

export function accessOf(operations: Operations, principal: Principal): Access {
  const op = (ref: OperationRef) => {
    const found = operations.get(ref.schema.operationId);
    if (found === undefined) throw new Error(`dashboard: no operation ${ref.schema.operationId}`);
    return found;
  };
  return {
    can: (ref) => allows(principal.permissions, op(ref).permission),
    need: (ref) => requirePermission(principal, op(ref)),
  };
}
