import { Alert, Box, Center, Loader } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { SignInPrompt } from './SignInPrompt.tsx';
import { useChatLink } from './useChatLink.ts';

/** /chat/:id? — the id-th configured chat client in a full-size frame (spec §2.2). */
export default function ChatPage() {
  const { id } = useParams();
  const index = Number.parseInt(id ?? '0', 10);
  const link = useChatLink(Number.isNaN(index) || index < 0 ? 0 : index);
  if (link.kind === 'loading')
    return (
      <Center h="calc(100dvh - 60px)">
        <Loader />
      </Center>
    );
  if (link.kind === 'signed-out') return <SignInPrompt />;
  if (link.kind === 'error')
    return (
      <Box p="lg" maw={640} mx="auto">
        <Alert color="red" data-testid="chat-error">
          {link.message}
        </Alert>
      </Box>
    );
  return (
    <Box
      component="iframe"
      src={link.url}
      title={link.name}
      style={{ display: 'block', width: '100%', height: 'calc(100dvh - 60px)', border: 0 }}
    />
  );
}
