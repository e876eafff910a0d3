/**
 * A cache of values made from their keys, holding at most `kept`: the oldest made goes first. For what is costly to
 * make and keyed by something that does not change meaning (a sealed value, a key row's id, a secret).
 */
export function boundedCache<K, V>(kept: number, make: (key: K) => V): (key: K) => V {
  const held = new Map<K, V>();
  return (key) => {
    let value = held.get(key);
    if (value === undefined) {
      value = make(key);
      if (held.size >= kept) held.delete(held.keys().next().value!);
      held.set(key, value);
    }
    return value;
  };
}
