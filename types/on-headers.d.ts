declare module "on-headers" {
  import type { ServerResponse } from "node:http";
  /** Runs `listener` just before the response's headers are written. */
  export default function onHeaders(
    res: ServerResponse,
    listener: (this: ServerResponse) => void,
  ): void;
}
