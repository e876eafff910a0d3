import { Type } from 'typebox';
import type { Cursor } from '../../db/keyset.ts';
import { IdOf, Ref } from '../kit/schema.ts';
import { ApiError } from './errors.ts';

/**
 * The list query every list operation takes (docs/api.md#pagination): keyset pagination over time-sortable ids, whose
 * cursors are ids of `prefix`. "Not both cursors" stays in words: OpenAPI lists query parameters one by one, so no
 * schema in the document can relate two of them; the server answers 400 `parameter_invalid` (see `listPage`).
 */
export function ListQuery(noun: string, prefix: string) {
  const cursor = (description: string) =>
    IdOf(prefix, {
      description:
        `${description} It must be the id of one this key can see (\`${prefix}_…\`), else 400 ` +
        '`parameter_invalid`; `starting_after` and `ending_before` cannot be used together (400 `parameter_invalid`).',
    });
  return Type.Object(
    {
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Page size, 1–100.' })),
      starting_after: Type.Optional(cursor(`Return the ${noun}s just older than the one with this id.`)),
      ending_before: Type.Optional(
        cursor(`Return the ${noun}s just newer than the one with this id (still newest first).`),
      ),
    },
    { additionalProperties: false },
  );
}

/**
 * One page of a list, as every list operation answers it: `{object: "list", data, has_more}`, its schema a component
 * named `name` whose items are the component `item`. `description` defaults to "One page of <noun>, newest first."
 */
export function ListPage<T>(
  name: string,
  item: string,
  noun: string,
  examples: unknown[],
  hasMore: boolean,
  description?: string,
) {
  return Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(Ref<T>(item)),
      has_more: Type.Boolean({ description: `Whether more ${noun} lie beyond this page in the direction of travel.` }),
    },
    {
      $id: name,
      additionalProperties: false,
      description: description ?? `One page of ${noun}, newest first.`,
      examples: [{ object: 'list', data: examples, has_more: hasMore }],
    },
  );
}

export interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

export interface Page<Row> {
  rows: Row[];
  hasMore: boolean;
}

/**
 * One page, newest first, for a list query. `visible` says whether a cursor id is an object the caller can see:
 * anything else is refused, so that a cursor cannot probe the order of other owners' ids.
 */
export async function listPage<Row>(
  params: ListParams,
  visible: (id: string) => Promise<boolean>,
  fetch: (take: number, cursor: Cursor | undefined) => Promise<Row[]>,
): Promise<Page<Row>> {
  const limit = params.limit ?? 10;
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw new ApiError('parameter_invalid', 'starting_after and ending_before cannot be used together.', {
      param: 'ending_before',
    });
  }
  const param =
    params.starting_after !== undefined
      ? 'starting_after'
      : params.ending_before !== undefined
        ? 'ending_before'
        : null;
  let cursor: Cursor | undefined;
  if (param !== null) {
    const id = params[param]!;
    if (!(await visible(id)))
      throw new ApiError('parameter_invalid', `${param} must be the id of an object visible to this key.`, { param });
    cursor = { id, older: param === 'starting_after' };
  }
  const rows = await fetch(limit + 1, cursor);
  const page = rows.slice(0, limit);
  if (cursor !== undefined && !cursor.older) page.reverse();
  return { rows: page, hasMore: rows.length > limit };
}
