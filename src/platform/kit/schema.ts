import { type TUnsafe, Type } from 'typebox';

/** A string enum with its `type` stated, which OpenAPI tools and generated clients want (TypeBox's Enum omits it). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A reference to a shared schema (registered with app.addSchema), typed as the schema it names. */
export function Ref<T>(id: string): TUnsafe<T> {
  return Type.Unsafe<T>(Type.Ref(id));
}
