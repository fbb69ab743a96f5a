/**
 * The turf dialog's word on each person the turf is to be assigned to (POST /api/regions/preview's `people`): whether
 * it scopes them (their role's site rule is "their turf") and how many sites they will see with it, against now; for
 * someone it does not scope, that their role reads sites regardless and where that is changed (the role screen).
 */

import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { TurfOutlook } from '../../common/access-rules';

const sites = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'site' : 'sites'}`;

function outlookWords(person: TurfOutlook): string {
  if (person.scoped)
    return person.after === person.now
      ? `Scoped by their turf: still sees ${sites(person.after)}.`
      : `Scoped by their turf: will see ${sites(person.after)} (now ${person.now.toLocaleString('en')}).`;
  return `Not scoped: their role reads sites whatever their turf, so they keep seeing ${sites(person.now)}.`;
}

export function TurfOutlookList({ people, loading }: { people: TurfOutlook[] | null; loading: boolean }) {
  if (!people && !loading) return null;
  return (
    <section aria-labelledby="turf-outlook-title" data-testid="turf-outlook">
      <Typography id="turf-outlook-title" variant="subtitle2" sx={{ mt: 2 }}>
        What this turf does for each person
      </Typography>
      {loading && !people ? (
        <Typography variant="body2" color="text.secondary" role="status">
          Working out what each person will see…
        </Typography>
      ) : (
        <List dense disablePadding>
          {people!.map((person) => (
            <ListItem key={person.id} disableGutters data-testid="turf-outlook-person" data-scoped={person.scoped}>
              <ListItemText
                primary={person.role ? `${person.name} · ${person.role.name}` : person.name}
                secondary={
                  <>
                    {outlookWords(person)}
                    {!person.scoped && person.role && (
                      <>
                        {' '}
                        <Link component={RouterLink} to={`/roles/${person.role.id}`}>
                          Set the {person.role.name} role to “their turf”
                        </Link>
                      </>
                    )}
                  </>
                }
                slotProps={{ secondary: { component: 'span' } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </section>
  );
}
