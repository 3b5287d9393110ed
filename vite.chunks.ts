/**
 * How the browser build groups modules into files (Rolldown `output.codeSplitting.groups`).
 *
 * Left to itself the bundler gives every small module shared by two routes a file of its own: a
 * product page loaded 44 JavaScript files, 30 of them under 1 KB (an icon, a badge, a helper). On
 * a phone's connection each file costs a round trip and competes with the stylesheet and the
 * product image for the first paint. Instead:
 *
 * - `framework`: React, React DOM and React Router, which change only with an upgrade;
 * - `shell`: everything the root layout (app/root.tsx) and the client entry need, which every
 *   page loads anyway;
 * - `storefront`: what two or more of the storefront's routes (home, listings, product, search)
 *   share, beyond the shell;
 * - everything else as the bundler decides (a route's own modules go with the route; admin and
 *   account screens keep their modules to themselves).
 */

import { readFileSync } from "node:fs";

type ModuleInfo = { importers: string[]; isEntry: boolean } | null;
type Context = { getModuleInfo(id: string): ModuleInfo };

const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;
const ROOT = /[\\/]app[\\/]root\.tsx($|\?)|entry\.client/;
const STOREFRONT = /[\\/]app[\\/]routes[\\/](home|listing|product|search)\.tsx($|\?)/;
const PRODUCT = /[\\/]app[\\/]routes[\\/]product\.tsx($|\?)/;

/**
 * Packages whose main module re-exports every part (`import { Toast } from "radix-ui"`,
 * `import { Heart } from "lucide-react"`). The bundler sees the barrel import every part, so an
 * importer of the barrel counts as importing a part only if it names one of that part's exports.
 */
const BARRELS: Array<{
  id: RegExp;
  specifier: string;
  /** The key of a part, from its module id. */
  part: RegExp;
  /** Export names by part key, from the barrel's source. */
  exports: (source: string) => Map<string, string[]>;
}> = [
  {
    id: /[\\/]node_modules[\\/]radix-ui[\\/]dist[\\/]index\.mjs$/,
    specifier: "radix-ui",
    part: /[\\/]node_modules[\\/](@radix-ui[\\/][\w-]+)[\\/]/,
    exports(source) {
      const map = new Map<string, string[]>();
      for (const [, name, pkg] of source.matchAll(
        /import \* as (\w+) from "(@radix-ui\/[\w-]+)"/g,
      )) {
        map.set(pkg as string, [name as string]);
      }
      return map;
    },
  },
  {
    id: /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/,
    specifier: "lucide-react",
    part: /[\\/](icons[\\/][\w-]+)\.mjs$/,
    exports(source) {
      const map = new Map<string, string[]>();
      for (const [, list, file] of source.matchAll(
        /export \{([^}]+)\} from '\.\/(icons\/[\w-]+)\.mjs'/g,
      )) {
        const names = (list as string).split(",").map((n) => n.trim().replace(/^default as /, ""));
        map.set(file as string, names);
      }
      return map;
    },
  },
];

/** lucide-react's namespace of every icon (`icons`), which the shop never imports. */
const UNUSED_NAMESPACE = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]index\.mjs$/;

const sourceOf = (id: string) => {
  try {
    return readFileSync(id.replace(/\?.*$/, ""), "utf8");
  } catch {
    return "";
  }
};

/** The names a module imports from a package: `import { A, B as C } from "pkg"` gives A, B. */
function namesImported(source: string, specifier: string): Set<string> {
  const names = new Set<string>();
  const pattern = new RegExp(
    `import\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*["']${specifier}["']`,
    "g",
  );
  for (const [, list] of source.matchAll(pattern)) {
    for (const item of (list as string).split(",")) {
      const name = item
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The entry modules (route modules, the client entry) from which a module is statically reached. */
function entriesOf(id: string, ctx: Context, memo: Map<string, Set<string>>): Set<string> {
  const known = memo.get(id);
  if (known) return known;
  const entries = new Set<string>();
  // Set before walking, so an import cycle ends here.
  memo.set(id, entries);
  const info = ctx.getModuleInfo(id);
  if (!info) return entries;
  if (info.isEntry) entries.add(id);
  for (const importer of info.importers) {
    if (UNUSED_NAMESPACE.test(importer)) continue;
    const barrel = BARRELS.find((b) => b.id.test(importer));
    const reached = barrel
      ? throughBarrel(id, importer, barrel, ctx, memo)
      : entriesOf(importer, ctx, memo);
    for (const entry of reached) entries.add(entry);
  }
  return entries;
}

const barrelExports = new Map<string, Map<string, string[]>>();

/** The entries reaching a part through its barrel: those of the barrel's importers that name it. */
function throughBarrel(
  id: string,
  barrelId: string,
  barrel: (typeof BARRELS)[number],
  ctx: Context,
  memo: Map<string, Set<string>>,
): Set<string> {
  const key = barrel.part.exec(id)?.[1]?.replaceAll("\\", "/");
  if (!barrelExports.has(barrelId)) barrelExports.set(barrelId, barrel.exports(sourceOf(barrelId)));
  const names = key ? barrelExports.get(barrelId)?.get(key) : undefined;
  // A module the barrel doesn't re-export by name: count every importer, as the bundler does.
  if (!names) return entriesOf(barrelId, ctx, memo);
  const entries = new Set<string>();
  for (const importer of ctx.getModuleInfo(barrelId)?.importers ?? []) {
    const imported = namesImported(sourceOf(importer), barrel.specifier);
    if (!names.some((n) => imported.has(n))) continue;
    for (const entry of entriesOf(importer, ctx, memo)) entries.add(entry);
  }
  return entries;
}

/** Rolldown's `codeSplitting` option for the client build. */
export function clientCodeSplitting() {
  const memo = new Map<string, Set<string>>();
  return {
    groups: [
      { name: "framework", test: FRAMEWORK, priority: 3 },
      {
        name(id: string, ctx: Context) {
          if (/\.css($|\?)/.test(id)) return null;
          const entries = entriesOf(id, ctx, memo);
          // A route module is its own file; only what it imports is grouped.
          if (ctx.getModuleInfo(id)?.isEntry) return null;
          const list = [...entries];
          if (list.some((e) => ROOT.test(e))) return "shell";
          if (list.filter((e) => STOREFRONT.test(e)).length >= 2) return "storefront";
          // What the product page shares with a page beyond the storefront (the cart, checkout,
          // custom printing, orders: variant rules, the PIN box, the quantity stepper's icons) is
          // a few small modules: one file with the storefront's instead of a file each, since on
          // a phone's connection each file on the product page costs its first paint a round trip.
          if (list.length >= 2 && list.some((e) => PRODUCT.test(e))) return "storefront";
          return null;
        },
        priority: 2,
      },
    ],
  };
}
