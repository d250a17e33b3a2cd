/**
 * EasyPay expects the browser itself to POST the signed fields to its submit
 * page (it then redirects to Alipay or WeChat Pay), so the console builds a
 * hidden form and submits it instead of calling the gateway with fetch.
 */
export function submitPayForm(url: string, fields: Record<string, string>) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
