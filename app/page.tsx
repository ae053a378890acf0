export default function Home() {
  return <main>svc</main>;
}
