import { EXIT, Failure } from './exits.ts';

/** `cli listen`'s options, as src/cli/program.ts registers them (docs/api.md#operator-cli). */
export interface ListenOptions {
  api?: string;
  key?: string;
  types?: string;
  forwardTo?: string;
}

/** A placeholder until the live event stream lands: the command exists, says so, and exits 69 (unavailable). */
export async function listen(_options: ListenOptions): Promise<void> {
  throw new Failure('listen is not built yet', EXIT.unavailable);
}
