import { Type } from 'typebox';
import { idPattern } from '../kit/ids.ts';
import { StringEnum } from '../kit/schema.ts';

/**
 * The RFC 9457 problem body every error response carries, as one shared component. `codes`: the closed list in
 * catalogue order (see http/error-codes.ts), which is the enum's order in the document.
 */
export const problemSchema = (codes: string[]) =>
  Type.Object(
    {
      type: Type.String({ description: 'Relative reference to the documentation of `code`: `/docs/errors#<code>`.' }),
      title: Type.String({ description: 'Short summary of the code, for people.' }),
      status: Type.Integer({ description: 'The HTTP status code.' }),
      detail: Type.String({ description: 'What went wrong in this request, for people. May change; do not parse it.' }),
      code: StringEnum(codes, { description: 'What clients switch on.' }),
      param: Type.Optional(
        Type.String({ description: 'The first offending input: a dotted field path or a header name.' }),
      ),
      errors: Type.Optional(
        Type.Array(
          Type.Object(
            {
              code: StringEnum(codes),
              param: Type.Optional(Type.String()),
              detail: Type.String(),
            },
            { additionalProperties: false },
          ),
          { description: 'Every offending input when a request has several.' },
        ),
      ),
      request_id: Type.String({ pattern: idPattern('req'), description: 'Equal to the `Request-Id` header.' }),
    },
    {
      additionalProperties: false,
      description: 'An RFC 9457 problem.',
      examples: [
        {
          type: '/docs/errors#parameter_invalid',
          title: 'Invalid parameter',
          status: 400,
          detail: 'kyb.ein must look like 12-3456789.',
          code: 'parameter_invalid',
          param: 'kyb.ein',
          errors: [{ code: 'parameter_invalid', param: 'kyb.ein', detail: 'kyb.ein must look like 12-3456789.' }],
          request_id: 'req_D20BX2JY00TY1SK00H0Y2JPAH2',
        },
      ],
    },
  );
