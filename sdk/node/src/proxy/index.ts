export { createGatehouseProxy, type GatehouseProxy, type ProxyOptions, type ProxyRequestContext } from './proxy.js';
export { createNodeProxy, createExpressProxy, nodeHandler } from './node.js';
export { forwardedRequestHeaders, returnedResponseHeaders, isValidHeaderValue, FORWARDED_REQUEST_HEADERS, HOP_BY_HOP_HEADERS, ProxyHeaders, SDK_MARKER, type ForwardContext } from './headers.js';
