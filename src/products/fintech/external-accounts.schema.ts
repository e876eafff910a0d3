import { type Static, Type } from 'typebox';
import { Metadata, MetadataInput, MetadataUpdate } from '../../modules/metadata/index.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { Livemode, RoutingNumber, Time } from './payments.schema.ts';

/** External accounts: bank accounts outside Plinth that payments go to (docs/api.md#bank-account-numbers-and-payments). */

export const ExternalAccountCreateBody = Type.Object(
  {
    routing_number: RoutingNumber,
    account_number: Type.String({
      pattern: '^[0-9]{4,17}$',
      description: 'The account number at that bank, 4–17 digits. Shown afterwards as its last four digits only.',
      examples: ['000123456789'],
    }),
    account_holder_name: FreeText(140, {
      description: 'Whose account it is, 1–140 characters.',
      examples: ['Acme Supplies LLC'],
    }),
    account_type: StringEnum(['checking', 'savings'], {
      description: '`checking` or `savings`.',
      examples: ['checking'],
    }),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        routing_number: '021000021',
        account_number: '000123456789',
        account_holder_name: 'Acme Supplies LLC',
        account_type: 'checking',
      },
    ],
  },
);
export type ExternalAccountCreateBody = Static<typeof ExternalAccountCreateBody>;

export const ExternalAccountUpdateBody = Type.Object(
  {
    account_holder_name: Type.Optional(FreeText(140, { description: 'Whose account it is, 1–140 characters.' })),
    metadata: Type.Optional(MetadataUpdate),
  },
  { additionalProperties: false, examples: [{ account_holder_name: 'Acme Supplies Inc.' }] },
);
export type ExternalAccountUpdateBody = Static<typeof ExternalAccountUpdateBody>;

const EXAMPLE_EXTERNAL = {
  id: 'ext_01M7Z2B4K8D2F6H0J4M8N2P6R0',
  object: 'fintech.external_account',
  routing_number: '021000021',
  account_number_last4: '6789',
  account_holder_name: 'Acme Supplies LLC',
  account_type: 'checking',
  status: 'active',
  metadata: {},
  livemode: false,
  created_at: '2026-11-28T09:31Z',
};

export const ExternalAccount = Type.Object(
  {
    id: Type.String({ pattern: idPattern('ext'), description: '`ext_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.external_account'),
    routing_number: Type.String({ description: 'Its bank’s ABA routing number.' }),
    account_number_last4: Type.String({ pattern: '^[0-9]{4}$', description: 'The last four digits of its number.' }),
    account_holder_name: Type.String({ description: 'Whose account it is.' }),
    account_type: Type.String({ description: '`checking` or `savings`.' }),
    status: Type.String({ description: '`active`. Open enum.', examples: ['active'] }),
    metadata: Metadata,
    livemode: Livemode,
    created_at: Time('Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.'),
  },
  {
    $id: 'ExternalAccount',
    additionalProperties: false,
    description: 'A bank account outside Plinth that payments are sent to: a counterparty.',
    examples: [EXAMPLE_EXTERNAL],
  },
);
export type ExternalAccount = Static<typeof ExternalAccount>;

export const ExternalAccountIdParams = Type.Object(
  { id: IdOf('ext', { description: 'An external account id, `ext_…`.' }) },
  { additionalProperties: false },
);
export const ExternalAccountListQuery = Type.Object(
  { ...ListQuery('external account', 'ext').properties },
  { additionalProperties: false },
);
export type ExternalAccountListQuery = Static<typeof ExternalAccountListQuery>;
export const ExternalAccountList = ListPage<ExternalAccount>(
  'ExternalAccountList',
  'ExternalAccount',
  'external accounts',
  [EXAMPLE_EXTERNAL],
  false,
);
export type ExternalAccountList = Static<typeof ExternalAccountList>;
