/** A set of listeners: both backends keep their commit observers in one. */
export function listeners<T>(): { add(listener: (value: T) => void): void; emit(value: T): void } {
  const all: ((value: T) => void)[] = [];
  return {
    add: (listener) => all.push(listener),
    emit: (value) => {
      for (const listener of all) listener(value);
    },
  };
}
