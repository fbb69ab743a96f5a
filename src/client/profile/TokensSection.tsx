/**
 * The profile's personal access tokens (docs/api.md "Personal access tokens"): make one for a script (shown once,
 * with a copy button), see when each was last used, revoke it.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../i18n/dates';
import { copyText } from '../layout/copy-text';
import { useAppDataProvider } from '../records/hooks';

interface Token {
  id: number;
  name: string;
  abilities: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

const ABILITY_CHOICES = [
  { value: 'read', label: 'Read only', abilities: ['read'] },
  { value: 'read-write', label: 'Read and write', abilities: ['read', 'write'] },
] as const;

const describeAbilities = (abilities: string[]) =>
  abilities.includes('*') ? 'Everything you may do' : abilities.join(', ');

export default function TokensSection() {
  const [tokens, setTokens] = useState<Token[]>([]);
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<string>('read');
  const [expires, setExpires] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const dataProvider = useAppDataProvider();

  const load = useCallback(async () => {
    try {
      setTokens(await dataProvider.tokens());
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [dataProvider]);
  useEffect(() => {
    void load();
  }, [load]);

  const make = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setCopied(null);
    try {
      const abilities = ABILITY_CHOICES.find((c) => c.value === choice)?.abilities ?? ['read'];
      const secret = await dataProvider.createToken({
        name,
        abilities,
        expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
      });
      setMade(secret);
      setName('');
      await load();
    } catch (failure) {
      setError((failure as Error).message || 'The token could not be made. Try again.');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: Token) => {
    setError(null);
    try {
      await dataProvider.revokeToken(token.id);
      await load();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section aria-labelledby="tokens-title">
      <Typography component="h2" variant="h6" id="tokens-title">
        Personal access tokens
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        A token lets a script use the API as you (send it as <code>Authorization: Bearer</code>), with no more than you
        may do yourself.
      </Typography>
      {made && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setMade(null)}>
          Copy this token now: it is shown only once.
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            <TextField
              inputRef={field}
              value={made}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'The new token' } }}
            />
            <Button
              startIcon={<ContentCopyIcon />}
              onClick={async () => setCopied(await copyText(made, field.current))}
            >
              Copy
            </Button>
          </Stack>
          {copied !== null && (copied ? 'Copied.' : 'Copying did not work here: select the token and copy it.')}
        </Alert>
      )}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={2} onSubmit={make} sx={{ mb: 2 }}>
        <TextField
          label="Token name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          size="small"
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <TextField select label="May" value={choice} onChange={(event) => setChoice(event.target.value)} size="small">
          {ABILITY_CHOICES.map((c) => (
            <MenuItem key={c.value} value={c.value}>
              {c.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          label="Expires"
          value={expires}
          onChange={(event) => setExpires(event.target.value)}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
          helperText="Empty: never"
        />
        <Button type="submit" variant="contained" disabled={busy || !name.trim()}>
          Make token
        </Button>
      </Stack>
      {tokens.length === 0 ? (
        <Typography variant="body2">You have no tokens.</Typography>
      ) : (
        <Table size="small" aria-label="Your tokens">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>May</TableCell>
              <TableCell>Expires</TableCell>
              <TableCell>Last used</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {tokens.map((token) => (
              <TableRow key={token.id}>
                <TableCell>{token.name}</TableCell>
                <TableCell>{describeAbilities(token.abilities)}</TableCell>
                <TableCell>{token.expires_at ? formatDateTime(token.expires_at) : 'Never'}</TableCell>
                <TableCell>{token.last_used_at ? formatDateTime(token.last_used_at) : 'Not yet'}</TableCell>
                <TableCell align="right">
                  <Button size="small" color="error" onClick={() => revoke(token)}>
                    Revoke
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
