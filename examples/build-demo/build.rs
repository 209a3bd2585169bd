fn main() {
    utter_build::compile("../card-agent");
}
