/**
 * A zod schema whose safeParse counts its calls (its answers are the real schema's), for tests
 * that prove a fast path spares zod its work: only the count tells the two roads apart.
 */
export function countedSchema<S extends { safeParse: (value: unknown) => unknown }>(
  schema: S,
  counter: { calls: number },
): S {
  const counted = Object.create(schema) as S;
  counted.safeParse = ((value: unknown) => {
    counter.calls += 1;
    return schema.safeParse(value);
  }) as S['safeParse'];
  return counted;
}
