// Matching of VS Code glob patterns (`**`, `*`, `?`, `{a,b}`, `[...]`) against workspace-relative
// paths, for the exclude setting on file-watcher events and on documents opened by hand
// (findFiles applies the globs itself during discovery).

export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob.replace(/\\/g, '/'))}$`);
}

function translate(g: string): string {
  let out = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        const atStart = i === 0 || g[i - 1] === '/';
        i++;
        if (atStart && g[i + 1] === '/') {
          out += '(?:[^/]*/)*'; // "**/": any number of folders, also none
          i++;
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const end = matchingBrace(g, i);
      if (end === -1) {
        out += '\\{';
        continue;
      }
      out += `(?:${splitTopLevel(g.slice(i + 1, end)).map(translate).join('|')})`;
      i = end;
    } else if (c === '[') {
      const end = g.indexOf(']', i + 1);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = g.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = end;
    } else {
      out += c.replace(/[.+^$()|\\/]/g, '\\$&');
    }
  }
  return out;
}

function matchingBrace(g: string, open: number): number {
  let depth = 0;
  for (let i = open; i < g.length; i++) {
    if (g[i] === '{') depth++;
    else if (g[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** One matcher for a list of globs; an empty list matches nothing. */
export function globsMatcher(globs: string[]): (relativePath: string) => boolean {
  const res = globs.map(globToRegExp);
  return (rel) => {
    const p = rel.replace(/\\/g, '/');
    return res.some((re) => re.test(p));
  };
}

/** `{a,b,c}` for findFiles and file watchers, which take one pattern. */
export function combineGlobs(globs: string[]): string | undefined {
  if (!globs.length) return undefined;
  return globs.length === 1 ? globs[0] : `{${globs.join(',')}}`;
}

// The exclude globs for a search (findFiles): each "X/**" also as "X", so the search skips the
// folder itself instead of listing it and then dropping every entry (ripgrep does the latter for
// "**/node_modules/**" alone: node_modules is read once, though never descended into).
export function searchExcludes(globs: string[]): string[] {
  const out = new Set<string>();
  for (const g of globs) {
    out.add(g);
    const folder = g.replace(/\/\*\*$/, '');
    if (folder !== g && folder && folder !== '**') out.add(folder);
  }
  return [...out];
}
