/**
 * Ends a request whose answer won't be read. A browser keeps a request open until its answer is
 * read or dropped: to anything waiting for the network to go quiet, the page never finishes.
 */
export function endUnread(res: Response): void {
  res.body?.cancel().catch(() => {});
}
