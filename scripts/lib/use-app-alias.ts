/** Import first in a script that imports app modules: registers scripts/lib/alias-hooks.ts. */
import { register } from "node:module";

register("./alias-hooks.ts", import.meta.url);
