/**
 * The header the server sets on every request to the client's address (from the socket, or from
 * X-Forwarded-For when TRUST_PROXY says so). A client can't choose it: the server overwrites it.
 */
export const CLIENT_IP_HEADER = "x-layerkart-client-ip";
