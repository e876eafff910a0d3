import { type Static, Type } from 'typebox';
import { FreeText, StringEnum } from '../../platform/kit/schema.ts';

/** Requests that change an account's status (docs/api.md#account-lifecycle). */

export const FREEZE_REASONS = ['suspected_fraud', 'compliance_review', 'customer_request', 'other'] as const;
export const CLOSE_REASONS = ['customer_request', 'fraud', 'compliance', 'other'] as const;

/** The longest note, in characters after trimming. */
export const NOTE_MAX = 500;

const Note = FreeText(NOTE_MAX, {
  description:
    'Free text kept with the change: 1–500 characters after trimming, without control, invisible or ' +
    'direction-changing characters (Unicode Cc, Cf, Zl, Zp).',
  examples: ['KYB documents requested on 2026-11-20'],
});

export const FreezeBody = Type.Object(
  {
    reason: StringEnum(FREEZE_REASONS, { description: 'Why the account is frozen.' }),
    note: Type.Optional(Note),
  },
  {
    additionalProperties: false,
    examples: [{ reason: 'compliance_review', note: 'KYB documents requested on 2026-11-20' }],
  },
);
export type FreezeBody = Static<typeof FreezeBody>;

export const UnfreezeBody = Type.Object(
  {},
  { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] },
);

export const CloseBody = Type.Object(
  {
    reason: Type.Optional(StringEnum(CLOSE_REASONS, { description: 'Why the account is closed; `other` if absent.' })),
    note: Type.Optional(Note),
  },
  {
    additionalProperties: false,
    description: 'No body, `{}`, or a reason.',
    examples: [{ reason: 'customer_request' }],
  },
);
export type CloseBody = Static<typeof CloseBody>;
