import type { Static } from 'typebox';
import { fintech } from './products/fintech/index.ts';

/**
 * The product registry: one line per product. The app, the migrator, the OpenAPI tags and the settings loop over
 * it.
 */
export const PRODUCTS = [fintech] as const;

type Each = (typeof PRODUCTS)[number];
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every product's settings, merged into the one Config. */
export type ProductSettings = Intersect<Static<Each['settings']>>;
