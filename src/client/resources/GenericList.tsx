/** Generic list for resources that have no dedicated screen yet (react-admin's guesser). */
import { ListGuesser } from 'react-admin';

export default function GenericList() {
  return <ListGuesser />;
}
