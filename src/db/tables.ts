/**
 * The row types of every table, as Kysely sees them. Empty here on purpose: each module declares its own tables
 * next to its code and merges them into this interface (`declare module '.../db/tables.ts'`), so the database layer
 * knows no product and a new product adds its tables without touching this folder. Rows never reach a response
 * as they are: each module maps them in a `*.view.ts`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from each module
export interface Tables {}
