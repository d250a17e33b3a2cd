import { useParams } from 'react-router-dom';
import { InboxDetail } from './InboxDetail.tsx';
import { InboxList } from './InboxList.tsx';

/** /app/inbox (the list) and /app/inbox/:id (one message, marked read on open). */
export default function InboxPage() {
  const { id } = useParams();
  return id === undefined ? <InboxList /> : <InboxDetail id={id} />;
}
