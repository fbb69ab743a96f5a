/**
 * The API reference (`/api-reference`): GET /api/openapi.json drawn by Swagger UI, bundled with the app (no outside
 * host), with each record type's fields as they are now. "Try it out" calls the API as the signed-in person, with the
 * CSRF header the API asks of unsafe methods.
 */
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { Title } from 'react-admin';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import { CSRF_COOKIE, CSRF_HEADER, readBrowserCookie } from '../http/client';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export default function ApiReferencePage() {
  const node = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!node.current) return;
    SwaggerUIBundle({
      url: '/api/openapi.json',
      domNode: node.current,
      deepLinking: false,
      // Groups closed and sorted, with a box that finds one: the whole API drawn open took half a minute.
      docExpansion: 'none',
      tagsSorter: 'alpha',
      filter: true,
      withCredentials: true,
      requestInterceptor: (request) => {
        const token = readBrowserCookie(CSRF_COOKIE);
        if (token && UNSAFE.has((request.method ?? 'GET').toUpperCase()))
          request.headers[CSRF_HEADER] = decodeURIComponent(token);
        request.headers['X-Requested-With'] = 'XMLHttpRequest';
        return request;
      },
    });
  }, []);
  return (
    <Stack spacing={1} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1200, minWidth: 0 }}>
      <Title title="API reference" />
      <Typography color="text.secondary">
        Every endpoint of the API with what it takes and answers; each record type is listed with its fields as they are
        now. Scripts sign in with a personal access token (Profile, Tokens) sent as Authorization: Bearer.
      </Typography>
      <div ref={node} data-testid="api-reference" />
    </Stack>
  );
}
