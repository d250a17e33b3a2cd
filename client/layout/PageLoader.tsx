import { Center, Loader } from '@mantine/core';

export function PageLoader({ h = 320 }: { h?: number | string }) {
  return (
    <Center h={h}>
      <Loader size="sm" />
    </Center>
  );
}
