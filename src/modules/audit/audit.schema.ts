import { type Static, Type } from 'typebox';
import { ListPage } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';

const HASH = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'A SHA-256, lower-case hex.' });
const EXAMPLE_HASH = '9c1185a5c5e9fc54612808977ee8f548b2258d31d0b2d8a5c1c4b8e1f2a3b4c5';
const EXAMPLE_ORG = 'org_01KAPQ9R3A1B2C3D4E5F6G7H8J';

export const AuditChainLink = Type.Object(
  {
    sequence: Type.Integer({ format: 'int64', minimum: 1, description: "The event's number (its `sequence`)." }),
    event_id: Type.String({ pattern: idPattern('evt') }),
    hash: { ...HASH, description: "The SHA-256 of the event's body, byte for byte as served (lower-case hex)." },
  },
  {
    $id: 'AuditChainLink',
    additionalProperties: false,
    description: "One event's place in the chain; kept forever, after the event's body has expired.",
    examples: [{ sequence: 42, event_id: 'evt_01KAPQ9R3W4X5Y6Z7A8B9C0D1E', hash: EXAMPLE_HASH }],
  },
);
export type AuditChainLink = Static<typeof AuditChainLink>;

export const AuditChainPage = ListPage<AuditChainLink>(
  'AuditChainPage',
  'AuditChainLink',
  'links',
  [{ sequence: 42, event_id: 'evt_01KAPQ9R3W4X5Y6Z7A8B9C0D1E', hash: EXAMPLE_HASH }],
  true,
  'One page of the chain, oldest first (by `sequence`).',
);

export const AuditChainQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        format: 'int64',
        minimum: 0,
        // An integer in a query string is at most 15 digits, as GET /v1/events/stream's `after` is.
        maximum: 999_999_999_999_999,
        default: 0,
        description: 'Links after this `sequence` (0: from the first).',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Links per page.' })),
  },
  { additionalProperties: false },
);
export type AuditChainQuery = Static<typeof AuditChainQuery>;

const EXAMPLE_NOTE =
  `plinth/${EXAMPLE_ORG}/live\n42\nnBGFpcXp/FRhKAiXfuj1SLIljTHQstilwcS44fKjtMU=\n\n` +
  '\u2014 plinth Wz5bJ2m1n1i5x9cY9o5ZqT3b1dLr0aQk3pKqg7O1mYvY5S9r4h6J0uW8b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4==\n';

export const AuditCheckpoint = Type.Object(
  {
    object: Type.Literal('audit.checkpoint'),
    origin: Type.String({ description: '`plinth/<org id>/<mode>`: whose chain.' }),
    size: Type.Integer({
      format: 'int64',
      minimum: 0,
      description: 'How many events the chain holds: the last `sequence`.',
    }),
    hash: {
      ...HASH,
      description:
        "The hash of the last event's body (the chain's head); with no event yet, of `plinth.chain.v1 <org id> <mode>`.",
    },
    note: Type.String({
      description:
        'The checkpoint as a C2SP signed note (`tlog-checkpoint`): origin, size and the base64 of the hash, each on ' +
        'a line, an empty line, then `— plinth <base64 of key id and Ed25519 signature>`. Keep it: a later chain ' +
        'must extend it.',
    }),
  },
  {
    $id: 'AuditCheckpoint',
    additionalProperties: false,
    description: "The org and mode's chain, signed by the instance's checkpoint key.",
    examples: [
      {
        object: 'audit.checkpoint',
        origin: `plinth/${EXAMPLE_ORG}/live`,
        size: 42,
        hash: EXAMPLE_HASH,
        note: EXAMPLE_NOTE,
      },
    ],
  },
);
export type AuditCheckpoint = Static<typeof AuditCheckpoint>;

const KeyFields = {
  name: Type.String({ description: 'The name its signature lines carry.' }),
  key_id: Type.String({ pattern: '^[0-9a-f]{8}$', description: "C2SP's key id: 4 bytes, hex." }),
  algorithm: Type.Literal('ed25519'),
  public_key: Type.String({ description: 'The raw 32-byte Ed25519 public key, base64.' }),
  verifier_key: Type.String({ description: 'The C2SP verifier key: `name+<key id>+<base64 of 0x01 and the key>`.' }),
  created_at: Type.String(),
  retired_at: Type.Union([Type.String(), Type.Null()], {
    description: 'When it stopped signing; null while it signs.',
  }),
};

export const AuditPublicKey = Type.Object(
  {
    object: Type.Literal('audit.public_key'),
    ...KeyFields,
    retired_keys: Type.Array(Type.Object(KeyFields, { additionalProperties: false }), {
      description: 'Keys that signed before a rotation, newest first: checkpoints they signed still verify.',
    }),
  },
  {
    $id: 'AuditPublicKey',
    additionalProperties: false,
    description: "The key that signs checkpoints (the instance's, the same for every org).",
    examples: [
      {
        object: 'audit.public_key',
        name: 'plinth',
        key_id: '5b3e5b27',
        algorithm: 'ed25519',
        public_key: 'kqXzPu3Xo9d2C9p5m2bq0mYyY2Zz6d8m2W9c1Qm5Wcs=',
        verifier_key: 'plinth+5b3e5b27+AZKl8z7t16PXdgvaeZtm6tJmMmNmc+nfJtlvXNUJuVnL',
        created_at: '2026-11-28T09:00:00.000Z',
        retired_at: null,
        retired_keys: [],
      },
    ],
  },
);
export type AuditPublicKey = Static<typeof AuditPublicKey>;
