import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Box,
  Button,
  Card,
  Center,
  Drawer,
  Group,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustments, IconMessageChatbot, IconPlayerStop, IconSend, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isImageModel } from '../../../shared/image-models.ts';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { useStoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { MessageList } from './MessageList.tsx';
import { ImagePanel } from './ImagePanel.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { type ChatSettings, useChat } from './useChat.ts';
import { isVideoModel } from './video-models.ts';
import { VideoPanel } from './VideoPanel.tsx';

const DEFAULT_MODEL = 'gpt-4o-mini';

/**
 * An image model by its name, or by the pricing page's doors when they are only the images API (a model
 * the operator declared so). Gemini's image models also answer on the chat doors, but draw in the image tab.
 */
const isImageModelOf = (name: string, doors?: readonly string[]) =>
  isImageModel(name) || (!!doors?.length && doors.every((d) => d === 'image-generation'));

/**
 * /playground: chat with any model the user's groups offer, billed to the session user (spec §2.9);
 * `?tab=video` opens the video tab (issue 40), `?tab=image` the image tab (issue 44).
 */
export default function PlaygroundPage() {
  const { t } = useLingui();
  const user = useStoredUser();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab = asked === 'video' || asked === 'image' ? asked : 'chat';
  const models = trpc.users.models.useQuery();
  // Models the relay would refuse (no price in selling mode) are not offered (issue 28).
  const pricing = trpc.pricing.list.useQuery(undefined, { staleTime: 60_000 });
  const groups = trpc.users.selfGroups.useQuery();
  const chat = useChat();
  const [drawerOpen, drawer] = useDisclosure(false);
  const [input, setInput] = useState('');
  const [settings, setSettings] = useState<ChatSettings>({
    group: '',
    model: '',
    temperature: 0,
    maxTokens: 0,
    // In the console's language: a Chinese console's chats start with a Chinese system prompt (issue 45).
    systemPrompt: t`You are a helpful assistant.`,
  });
  const viewport = useRef<HTMLDivElement>(null);

  const refused = new Set((pricing.data?.data ?? []).filter((p) => !p.callable).map((p) => p.model_name));
  const callable = (models.data ?? []).filter((m) => !refused.has(m));
  const doors = new Map((pricing.data?.data ?? []).map((p) => [p.model_name, p.supported_endpoint_types]));
  // Video and image models go to their own tabs: a chat with one would only end in an error.
  const videoModels = callable.filter((m) => isVideoModel(m, doors.get(m)));
  const imageModels = callable.filter((m) => !videoModels.includes(m) && isImageModelOf(m, doors.get(m)));
  const modelList = callable.filter((m) => !videoModels.includes(m) && !imageModels.includes(m));
  const groupList = Object.entries(groups.data ?? {}).map(([g, info]) => ({
    value: g,
    label: info.desc && info.desc !== g ? `${g} (${serverTextInLanguage(info.desc)})` : g,
  }));

  // Pick defaults once the lists arrive (gpt-4o-mini when offered, the user's own group); later picks stay.
  useEffect(() => {
    // Wait for the prices, so the default is never a model the relay refuses.
    if (pricing.isLoading) return;
    setSettings((s) => ({
      ...s,
      model: s.model || (modelList.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (modelList[0] ?? '')),
      group:
        s.group ||
        (user?.group && groupList.some((g) => g.value === user.group) ? user.group : (groupList[0]?.value ?? '')),
    }));
  }, [models.data, groups.data, pricing.data]);

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [chat.messages]);

  const submit = () => {
    const text = input.trim();
    if (!text || chat.busy || !settings.model) return;
    setInput('');
    void chat.send(text, settings);
  };

  const panel = <SettingsPanel value={settings} onChange={setSettings} groups={groupList} models={modelList} />;

  const tabs = (
    <SegmentedControl
      value={tab}
      onChange={(v) => setSearch(v === 'chat' ? {} : { tab: v }, { replace: true })}
      data={[
        { value: 'chat', label: t`Chat` },
        { value: 'image', label: t`Image` },
        { value: 'video', label: t`Video` },
      ]}
      aria-label={t`Playground mode`}
    />
  );

  if (tab === 'image')
    return (
      <Box p={{ base: 'xs', sm: 'md' }}>
        <Stack gap="sm">
          <Group>{tabs}</Group>
          <ImagePanel
            groups={groupList}
            defaultGroup={settings.group}
            models={imageModels}
            loading={models.isLoading || pricing.isLoading}
          />
        </Stack>
      </Box>
    );

  if (tab === 'video')
    return (
      <Box p={{ base: 'xs', sm: 'md' }}>
        <Stack gap="sm">
          <Group>{tabs}</Group>
          <VideoPanel
            groups={groupList}
            defaultGroup={settings.group}
            models={videoModels}
            loading={models.isLoading || pricing.isLoading}
          />
        </Stack>
      </Box>
    );

  return (
    <Box p={{ base: 'xs', sm: 'md' }} h="calc(100dvh - 60px)">
      <Stack gap="sm" h="100%">
        <Group>{tabs}</Group>
        <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
          <Card withBorder radius="md" w={300} visibleFrom="sm" style={{ flexShrink: 0, overflow: 'auto' }}>
            <Text fw={600} mb="sm">
              <Trans>Settings</Trans>
            </Text>
            {panel}
          </Card>
          <Drawer opened={drawerOpen} onClose={drawer.close} title={t`Settings`} hiddenFrom="sm" size="85%">
            {panel}
          </Drawer>
          <Card withBorder radius="md" style={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }} p={0}>
            <Group
              justify="space-between"
              px="md"
              py="xs"
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            >
              <Group gap="xs">
                <ActionIcon variant="default" hiddenFrom="sm" onClick={drawer.open} aria-label={t`Settings`}>
                  <IconAdjustments size={18} />
                </ActionIcon>
                <Text fw={600} size="sm">
                  {settings.model || t`No model`}
                </Text>
                {settings.group && (
                  <Text size="xs" c="dimmed">
                    {settings.group}
                  </Text>
                )}
              </Group>
              <Tooltip label={t`Clear conversation`}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={chat.clear}
                  disabled={chat.busy}
                  aria-label={t`Clear conversation`}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
            <ScrollArea style={{ flex: 1 }} viewportRef={viewport} p="md">
              {chat.messages.length === 0 ? (
                <Center h={240}>
                  <Stack align="center" gap={4}>
                    <IconMessageChatbot size={40} opacity={0.4} />
                    <Text c="dimmed" size="sm">
                      {modelList.length === 0 && !models.isLoading ? (
                        <Trans>No model is available to your groups yet.</Trans>
                      ) : (
                        <Trans>Send a message to start chatting.</Trans>
                      )}
                    </Text>
                  </Stack>
                </Center>
              ) : (
                <MessageList messages={chat.messages} />
              )}
            </ScrollArea>
            <Group
              p="sm"
              gap="xs"
              align="flex-end"
              wrap="nowrap"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Textarea
                style={{ flex: 1 }}
                autosize
                minRows={1}
                maxRows={6}
                placeholder={t`Type a message (Enter to send, Shift+Enter for a new line)`}
                value={input}
                onChange={(e) => setInput(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    submit();
                  }
                }}
                aria-label={t`Message`}
              />
              {chat.busy ? (
                <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={chat.stop}>
                  <Trans>Stop</Trans>
                </Button>
              ) : (
                <Button
                  leftSection={<IconSend size={16} />}
                  onClick={submit}
                  disabled={!input.trim() || !settings.model}
                >
                  <Trans>Send</Trans>
                </Button>
              )}
            </Group>
          </Card>
        </Group>
      </Stack>
    </Box>
  );
}
