// A real object with one method stood in for (a client whose server refuses one request), every
// other member the real one, bound to it: how the hub tests make one step of a flow fail.

/** `target` with `key` replaced by what `replace` makes of the original (bound to `target`). */
export function overriding<T extends object, K extends keyof T>(target: T, key: K, replace: (original: T[K]) => T[K]): T {
  const member: unknown = target[key];
  if (typeof member !== 'function') throw new TypeError(`${String(key)} is not a method`);
  const standIn = replace(member.bind(target) as T[K]);
  return new Proxy(target, {
    get(t, k) {
      if (k === key) return standIn;
      const v: unknown = Reflect.get(t, k, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}
