/** The ES bundle of swagger-ui-dist (it ships no types): the options the reference page passes. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerRequest {
    method?: string;
    headers: Record<string, string>;
  }
  interface SwaggerOptions {
    url: string;
    domNode: HTMLElement;
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    tagsSorter?: 'alpha';
    /** A box that shows only the groups (tags) whose name has the words typed. */
    filter?: boolean;
    tryItOutEnabled?: boolean;
    withCredentials?: boolean;
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest;
  }
  export default function SwaggerUIBundle(options: SwaggerOptions): unknown;
}
