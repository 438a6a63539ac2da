// Names in an Every Eval Ever datastore: the folders of data/<benchmark>/<developer>/<model>/ must be
// portable file names (the datastore's gate rejects <>:"\|?* and control characters, a trailing dot
// or space, Windows' reserved names and a part named "data"), and a model id is split into its
// developer and its name the way the schema's layout does (openai/gpt-4o -> openai, gpt-4o).

const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** One folder name from a source value: never a path, never empty. */
export function portableName(value: string): string {
  let s = value.replace(/[<>:"\\|?*\u0000-\u001f\u007f]/g, '_').replace(/\//g, '_').trim();
  s = s.replace(/[. ]+$/, '');
  if (s === '' || s === '.' || s === '..') return 'unknown';
  if (RESERVED.test(s) || s.toLowerCase() === 'data') return `_${s}`;
  return s;
}

/**
 * A model id's developer and model, as the folder names data/<benchmark>/<developer>/<model>/ take them.
 * A model that is a URL (promptfoo's HTTP provider, an endpoint of one's own) names no developer: its
 * folder is its host and path, never the scheme ("https:") as a developer nor a password as a name.
 */
export function modelParts(model: string): { developer: string; name: string } {
  const url = urlName(model);
  if (url !== undefined) return { developer: 'unknown', name: portableName(url) };
  const parts = model.split('/').filter(Boolean);
  if (parts.length < 2) return { developer: 'unknown', name: portableName(model) };
  return { developer: portableName(parts[0]), name: portableName(parts.slice(1).join('_')) };
}

/** A URL's host, port, path and query with / as _ (no scheme, no user or password); undefined when it is no URL. */
function urlName(model: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(model)) return undefined;
  let u: URL;
  try { u = new URL(model); } catch { return undefined; }
  if (!u.host) return undefined;
  return `${u.host}${u.pathname === '/' ? '' : u.pathname}${u.search}`.replace(/\/+$/, '').replace(/\//g, '_');
}

/**
 * JSON text as Python's json.dumps(v, sort_keys=True, separators=(",", ":")) writes it (ensure_ascii:
 * every character outside printable ASCII as \uXXXX): the bytes EEE's sample_hash recipe hashes, so
 * the same sample hashes alike whichever converter wrote it.
 */
export function pythonJsonDumps(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted((x as Record<string, unknown>)[k])]));
    return x;
  };
  return JSON.stringify(sorted(v)).replace(/[^\x20-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    // JSON.stringify already wrote \n, \t and the like; what is left raw is non-ASCII (and DEL).
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
