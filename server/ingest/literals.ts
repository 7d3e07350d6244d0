/**
 * Objects made in one step: an object literal compiled once per order of keys, the keys given
 * by index into `names`. Setting 30 keys one by one on a new object cost 2 µs a reading (each
 * a keyed store finding its way through V8's hidden classes); the literal costs a tenth of
 * that, and JSON.parse's objects are made the same way. The names are the caller's own (the
 * metric catalogue, device names checked against their pattern), never a message's raw text.
 */
export class Literals<V> {
  private readonly byOrder = new Map<string, Build<V>>();
  private last = new Int16Array(0);
  private lastBuild: Build<V> = () => ({});

  constructor(private readonly names: readonly string[]) {}

  /** The object of `count` keys `names[order[i]]` with the values `values[i]`, in that order. */
  make(order: Int16Array, count: number, values: ArrayLike<V>): Record<string, V> {
    if (count === this.last.length) {
      let same = true;
      for (let i = 0; i < count; i += 1) if (order[i] !== this.last[i]) same = false;
      if (same) return this.lastBuild(values);
    }
    this.last = order.slice(0, count);
    const id = this.last.join(',');
    let build = this.byOrder.get(id);
    if (!build) {
      const fields = [...this.last].map((k, i) => {
        const name = this.names[k]!;
        // In a literal, this key would set the object's prototype instead of making a key.
        if (name === '__proto__') throw new Error('__proto__ cannot be a key here');
        return `${JSON.stringify(name)}: v[${i}]`;
      });
      build = new Function('v', `return { ${fields.join(', ')} };`) as Build<V>;
      // A fleet of many firmwares: past this many orders, start again rather than grow.
      if (this.byOrder.size >= MAX_ORDERS) this.byOrder.clear();
      this.byOrder.set(id, build);
    }
    this.lastBuild = build;
    return build(values);
  }
}

type Build<V> = (values: ArrayLike<V>) => Record<string, V>;

const MAX_ORDERS = 64;
