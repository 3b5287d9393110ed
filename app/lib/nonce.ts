import { createContext, useContext } from "react";

/** The per-response Content-Security-Policy nonce; empty in the browser. */
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);
