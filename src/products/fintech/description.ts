import { ApiError } from '../../platform/http/errors.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import { DESCRIPTION_MAX } from './transfers.schema.ts';

/** A movement's description as stored: trimmed, or null when none was given. */
export function cleanDescription(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const text = cleanText(raw, DESCRIPTION_MAX);
  if (text === null)
    throw new ApiError('parameter_invalid', cleanTextRule('description', DESCRIPTION_MAX), { param: 'description' });
  return text;
}

/** Any free-text field of fintech's (a name), trimmed; refused, naming `param`, when it breaks the rule. */
export function cleanField(raw: string, max: number, param: string): string {
  const text = cleanText(raw, max);
  if (text === null) throw new ApiError('parameter_invalid', cleanTextRule(param, max), { param });
  return text;
}
