/** Generic show page for resources that have no dedicated screen yet (react-admin's guesser). */
import { ShowGuesser } from 'react-admin';

export default function GenericShow() {
  return <ShowGuesser />;
}
