import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "~/components/ui/use-toast";
import { endUnread } from "~/lib/end-unread.ts";
import { uploadText } from "~/rules/admin-uploads.ts";

/*
 * The admin's image upload queue (SPEC.md §2 "Admin image upload"): chosen files wait in a queue
 * and go up one after another with XMLHttpRequest, so each shows its own progress. Uploaded files
 * are only the product's once the form is saved; until then they can be discarded (each on its
 * own, or all of them when the admin cancels with 'Leave now').
 */

export const UPLOAD_ENDPOINT = "/api/admin/uploads";

export type UploadStatus = "queued" | "uploading" | "done" | "failed";

export type UploadItem = {
  key: string;
  name: string;
  status: UploadStatus;
  /** 0–100: bytes sent so far. */
  progress: number;
  url?: string;
  storagePath?: string;
  error?: string;
};

let keyCounter = 0;

/** Asks the server to delete uploads that were never saved. */
export async function discardUploads(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const body = new URLSearchParams();
  for (const p of paths) body.append("storagePath", p);
  const res = await fetch(UPLOAD_ENDPOINT, {
    method: "DELETE",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    keepalive: true,
  });
  endUnread(res);
  if (!res.ok) throw new Error(`discard failed: ${res.status}`);
}

/** Same, for a page that is going away: the browser sends it even as the page unloads. */
function discardOnUnload(paths: string[]) {
  if (paths.length === 0) return;
  const body = new URLSearchParams([["intent", "delete"]]);
  for (const p of paths) body.append("storagePath", p);
  navigator.sendBeacon?.(UPLOAD_ENDPOINT, body);
}

function errorOf(xhr: XMLHttpRequest): string {
  try {
    const parsed = JSON.parse(xhr.responseText) as { error?: unknown };
    if (typeof parsed.error === "string" && parsed.error) return parsed.error;
  } catch {}
  return xhr.status === 413 ? uploadText.tooLarge : "Please try again.";
}

export function useImageUploads(productId: string | null) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const files = useRef(new Map<string, File>());
  const current = useRef<{ key: string; xhr: XMLHttpRequest } | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const update = useCallback((key: string, changes: Partial<UploadItem>) => {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...changes } : i)));
  }, []);

  // Starts the next queued file whenever nothing is uploading.
  useEffect(() => {
    if (current.current || !productId) return;
    const next = items.find((i) => i.status === "queued");
    if (!next) return;
    const file = files.current.get(next.key);
    if (!file) return;
    const xhr = new XMLHttpRequest();
    current.current = { key: next.key, xhr };
    const finish = () => {
      if (current.current?.xhr === xhr) current.current = null;
      files.current.delete(next.key);
    };
    xhr.open("POST", UPLOAD_ENDPOINT);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) {
        update(next.key, { progress: Math.min(100, Math.round((e.loaded / e.total) * 100)) });
      }
    };
    xhr.onload = () => {
      finish();
      let result: { url?: unknown; storagePath?: unknown } = {};
      try {
        result = JSON.parse(xhr.responseText);
      } catch {}
      if (
        xhr.status === 200 &&
        typeof result.url === "string" &&
        typeof result.storagePath === "string"
      ) {
        update(next.key, {
          status: "done",
          progress: 100,
          url: result.url,
          storagePath: result.storagePath,
        });
      } else {
        const error = errorOf(xhr);
        update(next.key, { status: "failed", error });
        toast({ variant: "destructive", title: uploadText.failedTitle, description: error });
      }
    };
    xhr.onerror = () => {
      finish();
      update(next.key, { status: "failed", error: "The connection was lost." });
      toast({
        variant: "destructive",
        title: uploadText.failedTitle,
        description: "The connection was lost. Please try again.",
      });
    };
    xhr.onabort = finish;
    const body = new FormData();
    body.set("scope", "product");
    body.set("productId", productId);
    body.set("file", file, file.name);
    update(next.key, { status: "uploading", progress: 0 });
    xhr.send(body);
  }, [items, productId, update]);

  /** Queues files for upload, in the order given. */
  const add = useCallback((chosen: Iterable<File>) => {
    const added: UploadItem[] = [];
    for (const file of chosen) {
      keyCounter += 1;
      const key = `upload-${keyCounter}`;
      files.current.set(key, file);
      added.push({ key, name: file.name, status: "queued", progress: 0 });
    }
    if (added.length) setItems((list) => [...list, ...added]);
  }, []);

  /** Takes one file out: stops it if it is uploading, deletes it if it was uploaded. */
  const remove = useCallback(async (key: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item) return;
    if (current.current?.key === key) current.current.xhr.abort();
    files.current.delete(key);
    setItems((list) => list.filter((i) => i.key !== key));
    if (item.storagePath) {
      try {
        await discardUploads([item.storagePath]);
      } catch {
        toast({ variant: "destructive", title: "Failed to update", description: item.name });
      }
    }
  }, []);

  /** 'Leave now': stops the upload in progress, drops the queue and deletes every uploaded file. */
  const cancelAll = useCallback(async () => {
    current.current?.xhr.abort();
    current.current = null;
    files.current.clear();
    const paths = itemsRef.current.flatMap((i) => (i.storagePath ? [i.storagePath] : []));
    itemsRef.current = [];
    setItems([]);
    await discardUploads(paths);
  }, []);

  /** After a save: the uploaded files belong to the product now. */
  const committed = useCallback(() => {
    itemsRef.current = [];
    setItems([]);
  }, []);

  /** Tell the uploads a save is (or is no longer) in flight. */
  const savingRef = useRef(false);
  const setSaving = useCallback((saving: boolean) => {
    savingRef.current = saving;
  }, []);

  const busy = items.some((i) => i.status === "queued" || i.status === "uploading");
  const unsaved = busy || items.some((i) => i.status === "done");
  const uploadedPaths = items.flatMap((i) =>
    i.status === "done" && i.storagePath ? [i.storagePath] : [],
  );

  // Leaving the page with unsaved uploads: the browser asks first; if the page really goes, its
  // uploads are deleted.
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const gone = (e: PageTransitionEvent) => {
      // A save in flight may be about to keep these files: never delete them under it.
      if (e.persisted || savingRef.current) return;
      current.current?.xhr.abort();
      discardOnUnload(itemsRef.current.flatMap((i) => (i.storagePath ? [i.storagePath] : [])));
    };
    window.addEventListener("beforeunload", warn);
    window.addEventListener("pagehide", gone);
    return () => {
      window.removeEventListener("beforeunload", warn);
      window.removeEventListener("pagehide", gone);
    };
  }, [unsaved]);

  // Aborted on unmount (the form was reset or left).
  useEffect(() => () => current.current?.xhr.abort(), []);

  return { items, add, remove, cancelAll, committed, setSaving, busy, unsaved, uploadedPaths };
}
