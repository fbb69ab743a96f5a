/** Auth layout (SPEC section 2): a logo panel beside the content, for the sign-in pages. */

import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useConfig } from '../app/hooks';
import { useDocumentTitle } from '../layout/useDocumentTitle';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const config = useConfig();
  const translate = useTranslate();
  useDocumentTitle(title);
  const links = [
    { key: 'privacy', href: config.privacy_url },
    { key: 'terms', href: config.terms_url },
    { key: 'support', href: config.support_url },
  ].filter((link): link is { key: string; href: string } => Boolean(link.href));

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: { xs: 'column', md: 'row' },
        bgcolor: 'background.default',
      }}
    >
      <Box
        component="aside"
        sx={{
          flex: { md: '0 0 42%' },
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 2,
          px: 4,
          py: { xs: 4, md: 8 },
          textAlign: 'center',
        }}
      >
        <Box
          component="img"
          src={config.logo_url || '/logo.svg'}
          alt={`${config.name} logo`}
          sx={{
            width: { xs: 64, md: 120 },
            height: { xs: 64, md: 120 },
            borderRadius: 3,
            bgcolor: 'common.white',
            p: 1,
          }}
        />
        <Typography component="p" variant="h4" sx={{ fontWeight: 700, fontSize: { xs: '1.5rem', md: '2.2rem' } }}>
          {config.name}
        </Typography>
        <Typography component="p" variant="h6" sx={{ opacity: 0.9, fontWeight: 400 }}>
          {translate('app.tagline')}
        </Typography>
      </Box>
      <Box
        component="main"
        sx={{
          flex: 1,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          px: 2,
          py: 4,
        }}
      >
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
          <Typography component="h1" variant="h2" sx={{ mb: 3 }}>
            {title}
          </Typography>
          {children}
        </Paper>
        <Stack direction="row" spacing={3} component="nav" aria-label="Legal and support" sx={{ mt: 3 }}>
          {links.map((link) => (
            <Link
              key={link.key}
              href={link.href}
              color="text.secondary"
              underline="hover"
              variant="body2"
              target={link.href.startsWith('mailto:') ? undefined : '_blank'}
              rel="noopener"
            >
              {translate(`app.auth.${link.key}`)}
            </Link>
          ))}
        </Stack>
      </Box>
    </Box>
  );
}
