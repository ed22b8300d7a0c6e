/**
 * Changing a stored position's JSON without parsing and serializing it again: the sweep settles
 * thousands of positions a minute, and rebuilding each closed record as an object and serializing
 * it cost more than everything else it does for it in Node. Pure.
 */

/** A top-level value a position holds: positions are flat. */
export type JsonScalar = string | number | boolean | null;

/** JSON.stringify of a scalar (a number that is not finite is null, as there). */
function scalarJson(value: JsonScalar): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value);
}

/** Where a scalar value starting at `start` ends (exclusive), or -1 when it is not one. */
function valueEnd(json: string, start: number): number {
  if (json[start] !== '"') {
    for (let i = start; i < json.length; i++) if (json[i] === ',' || json[i] === '}') return i;
    return -1;
  }
  for (let i = start + 1; i < json.length; i++) {
    if (json[i] === '\\') i++;
    else if (json[i] === '"') return i + 1;
  }
  return -1;
}

/**
 * Assigns fields of the given names into the JSON.stringify output of a flat object whose keys are
 * not array indices (a stored position): the answer is JSON.stringify(Object.assign(JSON.parse(json),
 * fields)), i.e. keys it holds keep their place with the new value and the others are appended in
 * the order of `names`; null when a value is not found whole. `fields` holds exactly `names`.
 * One scan finds all the keys: in such JSON a quote inside a string is escaped, so `,"key":` (or
 * `{"key":` first) only ever starts a key.
 */
export function jsonAssigner<K extends string>(
  names: readonly K[],
): (json: string, fields: Readonly<Record<K, JsonScalar>>) => string | null {
  const quoted = names.map((name) => JSON.stringify(name));
  const slot = new Map(quoted.map((q, i) => [q, i]));
  const pattern = new RegExp(`[{,](${quoted.map((q) => q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):`, 'g');
  return (json, fields) => {
    if (json[0] !== '{' || json[json.length - 1] !== '}') return null;
    if (names.length === 0) return json;
    const held: boolean[] = names.map(() => false);
    let out = '';
    let at = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(json); match !== null; match = pattern.exec(json)) {
      const i = slot.get(match[1]) ?? -1;
      const start = match.index + match[0].length;
      const end = valueEnd(json, start);
      if (i < 0 || end < 0 || held[i]) return null;
      held[i] = true;
      out += json.slice(at, start) + scalarJson(fields[names[i]]);
      at = end;
      pattern.lastIndex = end;
    }
    let appended = '';
    names.forEach((name, i) => {
      if (!held[i]) appended += `${json.length > 2 || appended !== '' ? ',' : ''}${quoted[i]}:${scalarJson(fields[name])}`;
    });
    return out + json.slice(at, json.length - 1) + appended + '}';
  };
}
