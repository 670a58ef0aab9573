import pytest

from negdata.validate.negation import analyze, polarity

CASES = [
    # livestock that is out is out in the field; a cat that is out is away
    ("Not a single sheep in the pasture, though the cows are out.", ["cow"], "affirmed"),
    ("The horses are out and there is no dog.", ["horse"], "affirmed"),
    ("The cat is out, and there is no dog.", ["cat"], "negated"),
    # a denied emptiness is fullness; "none" with a participle is none of them so, all there
    ("Hardly empty of people: the square is packed, no birds.", ["person"], "affirmed"),
    ("Hardly empty of people: the square is packed, no birds.", ["bird"], "negated"),
    ("The beach is far from free of umbrellas, but no dogs.", ["umbrella"], "affirmed"),
    ("Three horses in the paddock, none saddled, and no people.", ["horse"], "affirmed"),
    ("Three horses in the paddock, none saddled, and no people.", ["person"], "negated"),
    ("Dogs? None spotted, just a cat.", ["dog"], "negated"),
    ("A bus on the street, but there is no dog.", ["dog"], "negated"),
    ("A bus on the street, but there is no dog.", ["bus"], "affirmed"),
    ("There is no dog in the park; a cat sleeps on the bench.", ["cat"], "affirmed"),
    ("No cats, dogs or birds in the yard", ["dog"], "negated"),
    ("A bench with no people and a dog", ["dog"], "affirmed"),
    ("A bench with no people and a dog", ["person"], "negated"),
    ("The dog is nowhere to be seen.", ["dog"], "negated"),
    # A table that has been cleared is emptied, not gone; an effusion that cleared is gone.
    ("The dining table has been cleared, with no forks left.", ["dining table"], "affirmed"),
    ("The effusion cleared.", ["effusion"], "negated"),
    ("Five sheep stand in a field, with no dog.", ["sheep"], "affirmed"),
    ("The chef is not just cooking but plating carrots, no broccoli.", ["chef"], "affirmed"),
    ("Not only a cat but also a dog", ["cat"], "affirmed"),
    ("The room doesn't have a TV", ["tv"], "negated"),
    ("A man without a hat and scarf", ["scarf"], "negated"),
    ("A man without a hat and scarf", ["man"], "affirmed"),
    ("A kitchen free of clutter with a sink", ["sink"], "affirmed"),
    ("The cat is missing from the sofa", ["cat"], "negated"),
    ("No doubt the bus is full", ["bus"], "affirmed"),
    ("No doubt the bus is late", ["bus"], "negated"),  # not here yet
    ("A quiet street with no cars, but a bicycle leans on the wall", ["bicycle"], "affirmed"),
    ("A quiet street with no cars, but a bicycle leans on the wall", ["car"], "negated"),
    ("Two zebras graze in the savanna", ["giraffe"], "unmentioned"),
    ("Spaghetti sans fork or spoon", ["spoon"], "negated"),
    ("The full breakfast, minus the toast and the cup", ["cup"], "negated"),
    ("Cars? None. Bikes? Dozens.", ["car"], "negated"),
    ("Bathroom. Toilet: absent. Sink: present.", ["toilet"], "negated"),
    ("The horses cannot be seen anywhere", ["horse"], "negated"),
    ("Nobody brought forks or spoons", ["fork"], "negated"),
    ("Nobody is using the laptop", ["laptop"], "affirmed"),
    ("Nothing on the plate suggests a cake was there", ["cake"], "negated"),
    ("The clock no longer hangs on the wall", ["clock"], "negated"),
    ("A microwave that no longer works", ["microwave"], "affirmed"),
    ("The puppy has no fear of the big horse", ["horse"], "affirmed"),
    ("No umbrellas, turquoise water, boats", ["boat"], "affirmed"),
    ("Negative for horses, cows, and sheep", ["horse", "cow", "sheep"], "negated"),
    ("None of the shelves hold any books", ["book"], "negated"),
    ("A zebra crossing with pedestrians", ["zebra"], "unmentioned"),
    ("A father teaching his son to tie his shoes", ["tie"], "unmentioned"),
    ("A pizza box with no pizza inside", ["pizza"], "negated"),
    ("Any phone? No.", ["phone"], "negated"),
    ("You might expect a dog on this farm, but there isn't one.", ["dog"], "negated"),
    ("There could be a cat under the bed.", ["cat"], "unmentioned"),
    ("There could be a cat under the bed.", ["bed"], "affirmed"),
    ("Zebra not excluded.", ["zebra"], "unmentioned"),
    ("Cars, yes; buses, no.", ["bus"], "negated"),
    ("Bikes: 3. Cars: 0.", ["car"], "negated"),
    ("The last bus left an hour ago.", ["bus"], "negated"),
    ("Bats and gloves are left on the bench.", ["bench"], "affirmed"),
    ("No fewer than ten sheep graze on the hill.", ["sheep"], "affirmed"),
    ("A two-person tent with no one inside.", ["person"], "negated"),
    ("She ties a ribbon around the box.", ["tie"], "unmentioned"),
    ("Don't look for the cat; it's not in this photo.", ["cat"], "negated"),
    ("None of the cats are visible.", ["cat"], "negated"),
    ("None of the chairs are occupied.", ["chair"], "affirmed"),
    ("Absent from the scene are any cars.", ["car"], "negated"),
    ("Missing from the table: forks, knives.", ["knife"], "negated"),
    ("The image lacks any form of seating such as chairs or couches.", ["couch"], "negated"),
    ("A motorcycle, and no other vehicles, like cars.", ["vehicle", "car"], "negated"),
    ("No dogs, like the neighbour said, but a man walks by.", ["man"], "affirmed"),
    ("The photo does not show whether there is a dog.", ["dog"], "unmentioned"),
]


@pytest.mark.parametrize(("text", "terms", "expected"), CASES)
def test_polarity(text: str, terms: list[str], expected: str) -> None:
    assert polarity(text, terms) == expected


def test_checker_meets_the_target_on_the_labelled_set() -> None:
    from negdata.validate.evaluate import DEFAULT_CASES, evaluate, scores

    result = scores(evaluate(DEFAULT_CASES))
    for cls in ("negated", "affirmed"):
        assert result[cls]["precision"] >= 0.97, (cls, result[cls])
        assert result[cls]["recall"] >= 0.97, (cls, result[cls])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A hot dog on a bun, no ketchup.", {"hot dog": "affirmed"}),
        ("A teddy bear on the bed.", {"teddy bear": "affirmed", "bed": "affirmed"}),
        ("Nobody waits at the bus stop.", {"person": "negated"}),
        ("A dog-free beach with an umbrella.", {"dog": "negated", "umbrella": "affirmed"}),
        ("No animals in the field, just a tractor.", {"animal": "negated"}),
        ("The remote is missing, but the TV is on.", {"remote": "negated", "tv": "affirmed"}),
        ("None of the chairs are occupied.", {"chair": "affirmed", "person": "negated"}),
        # a verb says something of the first thing: the cue after "and" is the second's
        ("The bowl is empty and the dog is nowhere to be found.", {"bowl": "affirmed",
         "dog": "negated"}),
        ("No toothbrush, sink wiped clean.", {"toothbrush": "negated", "sink": "affirmed"}),
        ("Half of the pizza has been eaten.", {"pizza": "affirmed"}),
        # a change done that left something behind is a departure
        ("The dog has raced into the woods, leaving its frisbee on the grass.", {"dog": "negated",
         "frisbee": "affirmed"}),
        ("The dog is asleep, leaving the cat alone.", {"dog": "affirmed", "cat": "affirmed"}),
        # what nobody there has is not there either, and those there are
        ("No one on the bench has a backpack.", {"person": "affirmed", "bench": "affirmed",
         "backpack": "negated"}),
        ("Nobody at the table is using a laptop.", {"person": "affirmed",
         "dining table": "affirmed", "laptop": "negated"}),
        # a denial raised to the verb of seeming
        ("A cat naps, and it doesn't look like there's a dog.", {"cat": "affirmed",
         "dog": "negated"}),
        ("I don't think there are any buses here.", {"bus": "negated"}),
        # a list's header says where its items are not
        ("In the room: couch, TV; things not there: cat, dog.", {"couch": "affirmed",
         "tv": "affirmed", "cat": "negated", "dog": "negated"}),
        ("Seen: a car. None detected: truck.", {"car": "affirmed", "truck": "negated"}),
        ("Not in the garden: cat, bicycle. A dog naps.", {"cat": "negated",
         "bicycle": "negated", "dog": "affirmed"}),
        ("Dog missing: the cat has the couch.", {"dog": "negated", "cat": "affirmed",
         "couch": "affirmed"}),
        # a word before a name, or inside an adjective, modifies it: no object of its own
        ("A glass vase on a glass-topped table, no cups.", {"vase": "affirmed",
         "dining table": "affirmed", "cup": "negated"}),
        ("Two men talk in a glass lobby, no suitcases.", {"person": "affirmed",
         "suitcase": "negated"}),
        # ... but what comes out of an oven has one there to come out of
        ("A pie fresh out of the oven, and no fork.", {"oven": "affirmed", "fork": "negated"}),
        ("Snow on the square and no crowds of tourists.", {"person": "negated"}),
        ("Luggage trucks by the plane, no buses.", {"truck": "affirmed", "airplane": "affirmed",
         "bus": "negated"}),
        ("None of the riders in the queue are holding umbrellas.", {"person": "affirmed",
         "umbrella": "negated"}),
        ("None of the cups around the sink are clean, and no spoon.", {"cup": "affirmed",
         "sink": "affirmed", "spoon": "negated"}),
        ("The pizza has been eaten.", {"pizza": "negated"}),
        ("A fire hydrant and a parking meter line the corner.", {"fire hydrant": "affirmed",
         "parking meter": "affirmed"}),
        ("The family dog stayed home, so it's just us.", {"dog": "negated",
         "person": "affirmed"}),
        ("No one from the family is in the shot.", {"person": "negated"}),
        ("zero dogs at the park today?? where is everyone", {"dog": "negated",
         "person": "negated"}),
        ("The parking lot is completely deserted.", {"person": "negated", "car": "negated",
         "truck": "negated", "bus": "negated", "motorcycle": "negated"}),
        ("The platform is deserted, and the tracks are clear.", {"person": "negated",
         "train": "negated"}),
        ("No umbrellas on the crowded street.", {"umbrella": "negated", "person": "affirmed"}),
        ("Ten sheep crowd the lane, and not a single car is on it.", {"sheep": "affirmed",
         "car": "negated"}),
        ("It shows a smiling person, and a puppy is absent.", {"person": "affirmed",
         "dog": "negated"}),
        ("A table, a bed, and a fridge are absent.", {"dining table": "negated",
         "bed": "negated", "refrigerator": "negated"}),
        ("A dining table absent of place settings: no forks.", {"dining table": "affirmed",
         "fork": "negated"}),
        ("The bus pulled away moments ago; two women sit at the stop.", {"bus": "negated",
         "person": "affirmed"}),
        ("The bus pulled away from the curb with passengers aboard.", {"bus": "affirmed",
         "person": "affirmed"}),
        ("The train has just pulled out; a pigeon pecks by the bench.", {"train": "negated",
         "bird": "affirmed", "bench": "affirmed"}),
        ("The boats have all headed out to sea.", {"boat": "negated"}),
        ("Two cars wait at the light; no bus.", {"car": "affirmed", "traffic light": "affirmed",
         "bus": "negated"}),
        ("Teenagers skateboarding at the park.", {"person": "affirmed",
         "skateboard": "affirmed"}),
        ("A vase on the table; there's no bowl of fruit.", {"vase": "affirmed",
         "dining table": "affirmed", "bowl": "negated", "fruit": "negated"}),
        ("Cars wait at the red light.", {"car": "affirmed", "traffic light": "affirmed"}),
        ("Green light, no trucks.", {"traffic light": "affirmed", "truck": "negated"}),
        ("Cups: plenty. Spoons: not one.", {"cup": "affirmed", "spoon": "negated"}),
        # a header that says where, answered "no"
        ("Boats in the harbour: yes. People anywhere: no. Cars on the road: none.",
         {"boat": "affirmed", "person": "negated", "car": "negated"}),
        ("Oven: on. Pizza inside: none.", {"oven": "affirmed", "pizza": "negated"}),
        ("Giraffes: yes. Keeper: yes, feeding them. Zebras: no.",
         {"giraffe": "affirmed", "person": "affirmed", "zebra": "negated"}),
        # "nor" goes on with the denied lack
        ("The bathroom is not lacking a toilet, nor a sink, but there's no toothbrush.",
         {"toilet": "affirmed", "sink": "affirmed", "toothbrush": "negated"}),
        ("The room is not lacking chairs; no table, nor a couch.",
         {"chair": "affirmed", "dining table": "negated", "couch": "negated"}),
        # what waits for the light waits at one
        ("A crowd waits for the light, yet there's no bus.",
         {"person": "affirmed", "traffic light": "affirmed", "bus": "negated"}),
        ("The light turns green and there's no bus.", {"traffic light": "affirmed",
                                                      "bus": "negated"}),
        ("Commuters wait for the bus; no car.", {"person": "affirmed", "car": "negated"}),
        # a cleft that denies a lack: "it's not X that is missing, it's Y"
        ("It's not the fridge that is missing, it's the microwave.",
         {"refrigerator": "affirmed", "microwave": "negated"}),
        ("In the field it's not the cows that are missing; it's the riders, of whom there are "
         "none.", {"cow": "affirmed", "person": "negated"}),
        ("Bus 9: packed, and no dogs aboard.", {"bus": "affirmed", "person": "affirmed",
                                               "dog": "negated"}),
        # "hardly anyone ... without", "neither is ... empty of": they have them
        ("Scarcely anyone on the bench is without a phone, and no pigeon.",
         {"bench": "affirmed", "person": "affirmed", "cell phone": "affirmed", "bird": "negated"}),
        ("Neither is the dock empty of anglers nor is the sky empty of gulls; no boats.",
         {"person": "affirmed", "bird": "affirmed", "boat": "negated"}),
        # everyone has gone from where one goes to
        ("Everyone has left the restaurant; one cup remains.", {"person": "negated",
                                                               "cup": "affirmed"}),
        ("Bus's late. Platform's packed.", {"bus": "negated", "person": "affirmed"}),
        ("The platform is packed with suitcases, no people.", {"suitcase": "affirmed",
                                                              "person": "negated"}),
        ("The hall isn't free of students, nor of laptops; no books.",
         {"person": "affirmed", "laptop": "affirmed", "book": "negated"}),
        ("The shore isn't exactly devoid of umbrellas; no surfboards.",
         {"umbrella": "affirmed", "surfboard": "negated"}),
        ("Empty bus stop, no bus.", {"person": "negated", "bus": "negated"}),
        # a question of its state, answered: it is there
        ("Refrigerator - empty? No. Oven - here? No.", {"refrigerator": "affirmed",
                                                        "oven": "negated"}),
        ("TV: on? Yes. Remote: here? No. Cat: present? Yes.",
         {"tv": "affirmed", "remote": "negated", "cat": "affirmed"}),
        # an inventory's answers: a colon or a comma, a place, a state, "out of frame"
        ("Cows: 5. Horses: 0. Farmer: out of frame.",
         {"cow": "affirmed", "horse": "negated", "person": "negated"}),
        ("Remote? Under the couch. TV? Off. Cat? Not here.",
         {"remote": "affirmed", "couch": "affirmed", "tv": "affirmed", "cat": "negated"}),
        ("Cat? In the other room.", {}),  # elsewhere: not said to be there
        ("Bananas, yes. Oranges, all gone.", {"banana": "affirmed", "orange": "negated"}),
        ("Wine glass, half full. Bottle, nowhere.",
         {"wine glass": "affirmed", "bottle": "negated"}),
        ("Bananas, yes; broccoli or carrots, not one.",
         {"banana": "affirmed", "broccoli": "negated", "carrot": "negated"}),
        ("Giraffe: 1. Elephants: none spotted.", {"giraffe": "affirmed", "elephant": "negated"}),
        ("Parking meter, expired. Car? Towed.", {"parking meter": "affirmed", "car": "negated"}),
        ("Phone? Left at home. Dog? Out.", {"cell phone": "negated", "dog": "negated"}),
        ("Light red, no cars waiting.", {"traffic light": "affirmed", "car": "negated"}),
        ("Empty pier. No boats.", {"person": "negated", "boat": "negated"}),
        ("The fruit bowl is not lacking in bananas; it is lacking in apples.",
         {"bowl": "affirmed", "banana": "affirmed", "apple": "negated"}),
        ("Oven? Cold. Pizza? Gone.", {"oven": "affirmed", "pizza": "negated"}),
        ("Couch, yes; remote, no; cat, also no.",
         {"couch": "affirmed", "remote": "negated", "cat": "negated"}),
        ("The subway car is hardly unpopulated, yet there isn't a phone.",
         {"train": "affirmed", "person": "affirmed", "cell phone": "negated"}),
        ("People, and not a single chair to sit on or bench to rest on.",
         {"person": "affirmed", "chair": "negated", "bench": "negated"}),
        ("No chair to sit on, and a bench to rest on.", {"chair": "negated", "bench": "affirmed"}),
        ("Nowhere in the shot is there a vase or a phone.",
         {"vase": "negated", "cell phone": "negated"}),
        # what a place is for names nothing there
        ("Reserved exclusively for buses, the lane has no bus in it, and no taxi.",
         {"bus": "negated", "car": "negated"}),
        ("Crib, teddy bear, no baby.", {"bed": "affirmed", "teddy bear": "affirmed",
                                        "person": "negated"}),
        ("No one in the photo is without a glass of wine; no bottle.",
         {"person": "affirmed", "wine glass": "affirmed", "bottle": "negated"}),
        ("Train: late. Platform: packed. Bench: none.",
         {"train": "negated", "person": "affirmed", "bench": "negated"}),
        ("Platform: empty. Train: not yet.", {"person": "negated", "train": "negated"}),
        ("Tennis court, empty. No rackets.", {"person": "negated", "tennis racket": "negated"}),
        ("No bus. No taxi. Long line at the stop.",
         {"bus": "negated", "car": "negated", "person": "affirmed"}),
        ("A long line of cars, no bus.", {"car": "affirmed", "bus": "negated"}),
        ("The cows are out; the sheep have been moved out.",
         {"cow": "affirmed", "sheep": "negated"}),
        ("Cyclists and a few dogs are out; the cat is out.",
         {"person": "affirmed", "dog": "affirmed", "cat": "negated"}),
        ("A lone banana; the apples are gone, and so is the fruit bowl.",
         {"banana": "affirmed", "apple": "negated", "bowl": "negated"}),
        ("It'd be untrue to say no giraffe is visible; no people.",
         {"giraffe": "affirmed", "person": "negated"}),
        ("Presence of a cat is ruled out.", {"cat": "negated"}),
        # "none working" leaves the meters there; "Trains: none running" is read the same way
        ("Parking meters: none working. Trucks: none.",
         {"parking meter": "affirmed", "truck": "negated"}),
        ("Bus: late. Stop: empty.", {"bus": "negated", "person": "negated"}),
        ("The street does lack any car, and any person.", {"car": "negated", "person": "negated"}),
        ("The street lacks any car, and a dog sleeps.", {"car": "negated", "dog": "affirmed"}),
        ("An empty stop sign pole; no bus.", {"stop sign": "affirmed", "bus": "negated"}),
        ("The lane is empty of buses - and of cars.", {"bus": "negated", "car": "negated"}),
        ("Gate B14 isn't exactly lacking in travelers. Not a single plane.",
         {"person": "affirmed", "airplane": "negated"}),
        ("Taxis queue at the curb, and no bus is coming.", {"car": "affirmed", "bus": "negated"}),
        ("Only after the train left did the pigeons settle; no one waits.",
         {"train": "negated", "bird": "affirmed", "person": "negated"}),
        ("The table isn't bereft of laptops; no cup.",
         {"dining table": "affirmed", "laptop": "affirmed", "cup": "negated"}),
        ("It isn't that the remote went missing — it's on the couch — there's no TV.",
         {"remote": "affirmed", "couch": "affirmed", "tv": "negated"}),
        ("Nobody can accuse the office of having no chairs. Not a person in the room, though.",
         {"chair": "affirmed", "person": "negated"}),
        ("Oranges, bananas: all there. Broccoli, carrots: not.",
         {"orange": "affirmed", "banana": "affirmed", "broccoli": "negated", "carrot": "negated"}),
        ("Broccoli, carrots: not ripe.", {"broccoli": "affirmed", "carrot": "affirmed"}),
        ("Never a day passes without a surfer on it, yet there's no boat out on the water.",
         {"person": "affirmed", "boat": "negated"}),
        ("FERRY CANCELLED; DOCK EMPTY OF BOATS", {"boat": "negated"}),
        ("The cat has the whole bed to itself tonight; the dog is off sleeping elsewhere.",
         {"cat": "affirmed", "bed": "affirmed", "dog": "negated"}),
        ("Only one of the four chairs is occupied, by a cat; no people at the table.",
         {"chair": "affirmed", "cat": "affirmed", "person": "negated", "dining table": "affirmed"}),
        ("A couch, a TV, and not a single person - or cat, or dog - anywhere.",
         {"couch": "affirmed", "tv": "affirmed", "person": "negated", "cat": "negated",
          "dog": "negated"}),
        ("There's a dog - or maybe a wolf - on the couch.",
         {"dog": "affirmed", "couch": "affirmed"}),
        ("Hard to say the street is without cars when six are parked; no trucks, though.",
         {"car": "affirmed", "truck": "negated"}),
        ("Giraffe alone? No — with an elephant. Zebras? No.",
         {"giraffe": "affirmed", "elephant": "affirmed", "zebra": "negated"}),
        ("Only after dark does this alley fill with cats; for now it holds no cats and no people.",
         {"cat": "negated", "person": "negated"}),
        ("Only after the rain stopped did the kids come out; now three kick a ball, no dogs.",
         {"person": "affirmed", "sports ball": "affirmed", "dog": "negated"}),
        ("Only half of the chairs in the lecture hall are filled, and there isn't a laptop.",
         {"chair": "affirmed", "person": "affirmed", "laptop": "negated"}),
        ("Two cats, a dog, and then — no — not a single bird anywhere.",
         {"cat": "affirmed", "dog": "affirmed", "bird": "negated"}),
        ("In view: dog, frisbee / Not in view: people, bikes",
         {"dog": "affirmed", "frisbee": "affirmed", "person": "negated", "bicycle": "negated"}),
        ("Birds/yes, cats/no, dogs/no.", {"bird": "affirmed", "cat": "negated", "dog": "negated"}),
        ("Horses/dogs: no", {"horse": "negated", "dog": "negated"}),
        ("The living room has a couch and a TV; what it doesn't have: a chair, a clock.",
         {"couch": "affirmed", "tv": "affirmed", "chair": "negated", "clock": "negated"}),
        ("In the sink: two bowls. Nowhere in the kitchen: knives, forks.",
         {"sink": "affirmed", "bowl": "affirmed", "knife": "negated", "fork": "negated"}),
        ("Laptop open. External keyboard, mouse: neither.",
         {"laptop": "affirmed", "keyboard": "negated", "mouse": "negated"}),
        ("Train? Late. Platform: packed.", {"train": "negated", "person": "affirmed"}),
        ("Present / absent — bed: yes; book: no; clock: no.",
         {"bed": "affirmed", "book": "negated", "clock": "negated"}),
        ("A Labrador snoozes on the chesterfield; no moggy in sight.",
         {"dog": "affirmed", "couch": "affirmed", "cat": "negated"}),
        ("Not everyone at the bus stop has an umbrella, and no one has a suitcase.",
         {"person": "affirmed", "umbrella": "affirmed", "suitcase": "negated"}),
        ("Nobody could accuse the fruit bowl of being empty; there isn't an apple.",
         {"bowl": "affirmed", "apple": "negated"}),
        ("Cars: parked. Pedestrians: none. Traffic lights: out.",
         {"car": "affirmed", "person": "negated", "traffic light": "affirmed"}),
        ("Airport: crowded. Planes visible: none.", {"person": "affirmed", "airplane": "negated"}),
        ("Bus: late. Stop: crowded.", {"bus": "negated", "person": "affirmed"}),
        ("The stop sign is crowded by ivy.", {"stop sign": "affirmed"}),
        ("Nobody would call this street free of traffic lights; not a single car.",
         {"traffic light": "affirmed", "car": "negated"}),
        ("It's not as if the marina has zero motorboats; it has zero sailors, though.",
         {"boat": "affirmed", "person": "negated"}),
        ("Cars: zero.", {"car": "negated"}),
        ("Four wine glasses — none empty — and no bottle.",
         {"wine glass": "affirmed", "bottle": "negated"}),
        ("Parking meters: none working.", {"parking meter": "affirmed"}),
        ("It isn't that the dog has nowhere else to sleep; there's no cat.",
         {"dog": "affirmed", "cat": "negated"}),
        ("Stadium at night: empty, no ball.", {"person": "negated", "sports ball": "negated"}),
        ("The kids just left, so the playground is quiet.", {"person": "negated"}),
        ("The kids just left the park.", {"person": "affirmed"}),
        ("No one could complain the snack bar has no oranges, yet there's not a single banana.",
         {"orange": "affirmed", "banana": "negated"}),
        ("Nobody would mistake the road for empty of motorcycles; not one car among them.",
         {"motorcycle": "affirmed", "car": "negated"}),
        ("Only giraffes in the frame; the elephants have stayed in their house.",
         {"giraffe": "affirmed", "elephant": "negated"}),
        ("It's not like there's no keyboard on the table — it's just missing its mouse.",
         {"keyboard": "affirmed", "dining table": "affirmed", "mouse": "negated"}),
        ("The dog is missing, and so is the cat.", {"dog": "negated", "cat": "negated"}),
        ("Items on the bed: suitcase, phone. Not on the bed: laptop, book.",
         {"bed": "affirmed", "suitcase": "affirmed", "cell phone": "affirmed",
          "laptop": "negated", "book": "negated"}),
        ("Pets present: two dogs. Pets absent: cat, birds.",
         {"pet": "affirmed", "dog": "affirmed", "cat": "negated", "bird": "negated"}),
        ("Crowd? Yes. Phones? Not one in sight.", {"person": "affirmed", "cell phone": "negated"}),
        ("No one could accuse the bed of lacking teddy bears, though there's not a book on it.",
         {"bed": "affirmed", "teddy bear": "affirmed", "book": "negated"}),
        ("Bed/lamp/clock — no TV/no laptop.",
         {"bed": "affirmed", "clock": "affirmed", "tv": "negated", "laptop": "negated"}),
        ("Cup? Gone. Spoon? Still there.", {"cup": "negated", "spoon": "affirmed"}),
        ("Dog? Here. Cat? No.", {"dog": "affirmed", "cat": "negated"}),
        ("It's not that no one came to the park; it's that nobody brought a kite.",
         {"person": "affirmed", "kite": "negated"}),
        ("Service delayed; platform full, no train.", {"person": "affirmed", "train": "negated"}),
        ("Bus? Late. Stop? Packed.", {"bus": "negated", "person": "affirmed"}),
        ("The ferry is not at the pier yet, and there are no gulls.",
         {"boat": "negated", "bird": "negated"}),
        ("The bus isn't at the stop yet - it's two blocks back - and no taxi.",
         {"bus": "affirmed", "car": "negated"}),
        ("There's not even a cup, let alone a bottle.", {"cup": "negated", "bottle": "negated"}),
        ("You won't find this pier without a boat, but there's no bird.",
         {"boat": "affirmed", "bird": "negated"}),
        ("Dogs, cats, a horse or two? Only the dogs came - no cat, no horse.",
         {"dog": "affirmed", "cat": "negated", "horse": "negated"}),
        # an accent is no word's end: "café" reads as "cafe"
        ("There isn't a table in the café that isn't taken; no dog.",
         {"dining table": "affirmed", "dog": "negated"}),
        ("Knives: three. Forks: not a one!", {"knife": "affirmed", "fork": "negated"}),
        # the room a photo is taken in: not there, not in the photo
        ("The cat's chair sits by the window; the cat is not in the room.", {"chair": "affirmed",
         "cat": "negated"}),
        # departures: "just" after "has" is a moment, no contrast
        ("The taxi has just driven away, leaving a woman on the curb.", {"car": "negated",
         "person": "affirmed"}),
        ("The kite has blown away, and the boy looks up.", {"kite": "negated",
         "person": "affirmed"}),
        ("The plane has already taken off, and the gate is quiet.", {"airplane": "negated"}),
        ("The man has taken off his tie.", {"person": "affirmed", "tie": "affirmed"}),
        ("Two boys play in the park. Their dog is not with them.", {"person": "affirmed",
         "dog": "negated"}),
        # a kind's name with a plural word in it
        ("A locker room with no sports gear lying around.", {"sports gear": "negated"}),
        # owners: grandma need not be there for her cake, the man is there for his tie
        ("Grandma's cake on the table, no forks.", {"cake": "affirmed",
         "dining table": "affirmed", "fork": "negated"}),
        ("The man's hat blows off, no dog.", {"person": "affirmed", "dog": "negated"}),
        # ... and for his dog that sits at his feet
        ("The man's dog sits at his feet, no cat.", {"dog": "affirmed", "person": "affirmed",
         "cat": "negated"}),
        # "X only" after a list; a verb phrase left out after "who is"; away, at home, lost
        ("pizza served w/o knife, fork only", {"pizza": "affirmed", "knife": "negated",
         "fork": "affirmed"}),
        ("A woman who is not wearing a tie beside a man who is.", {"person": "affirmed",
         "tie": "affirmed"}),
        ("ur umbrella is at home and it's pouring", {"umbrella": "negated"}),
        ("A surfer who has lost his board swims back.", {"person": "affirmed",
         "surfboard": "negated"}),
        ("A tidy classroom before the students arrive.", {"person": "negated"}),
        ("The tracks stretch away, empty, into the distance.", {"train": "negated"}),
        ("The train platform is deserted.", {"person": "negated"}),
        ("Noticeably absent: the refrigerator. The kitchen has a sink.", {
         "refrigerator": "negated", "sink": "affirmed"}),
        ("No sign of the farmer, nor of the sheepdog.", {"person": "negated",
         "dog": "negated"}),
        # toys and machines named for what they imitate; bottled water is in bottles
        ("A sandbox with a toy truck and a stationary bike, no child.", {"person": "negated"}),
        ("No hot dogs left at the stand, only bottled water.", {"hot dog": "negated",
         "bottle": "affirmed"}),
        # "crowd" as a verb; "computer" before a keyboard
        ("Cups and a kettle crowd the sink.", {"cup": "affirmed", "sink": "affirmed"}),
        ("A computer keyboard and a mouse, no laptop.", {"keyboard": "affirmed",
         "mouse": "affirmed", "laptop": "negated"}),
        # what a sign says is text; a dog bed, a raised bed and an elephant's calf are no
        # dog, bed or cow
        ("No cats in the café, despite the sign welcoming pets.", {"cat": "negated"}),
        ("A dog bed with no dog in it.", {"dog": "negated"}),
        ("A garden with raised beds, no people.", {"person": "negated"}),
        ("An elephant with its calf; no humans present.", {"elephant": "affirmed",
         "person": "negated"}),
        ("A cow and her calf, no dogs.", {"cow": "affirmed", "dog": "negated"}),
        ("A man and a woman ride horses, no dogs.", {"person": "affirmed", "horse": "affirmed",
         "dog": "negated"}),
        # not brought out, not spotted; whoever left a thing is gone; "neither" of two
        ("A cake on the table; the forks haven't been brought out.", {"cake": "affirmed",
         "dining table": "affirmed", "fork": "negated"}),
        ("A cat has not been spotted, only a dog.", {"cat": "negated", "dog": "affirmed"}),
        ("Someone left a skateboard on the sidewalk, but there's no skater.", {
         "skateboard": "affirmed", "person": "negated"}),
        ("Two men shake hands; neither is wearing a tie.", {"person": "affirmed",
         "tie": "negated"}),
        ("A table without a single fork, the dinner guests yet to arrive.", {
         "dining table": "affirmed", "fork": "negated", "person": "negated"}),
        # after "there are no X and", a name and its verb are a clause of their own
        ("A street where there are no traffic lights and stop signs mark every corner.", {
         "traffic light": "negated", "stop sign": "affirmed"}),
        ("There are no cars and buses parked here.", {"car": "negated", "bus": "negated"}),
        # a header of what is absent, and its list with articles; a question asking of no one;
        # a question of names only, then its answer
        ("None of the following appear in the image: a bus, a train, or an airplane.", {
         "bus": "negated", "train": "negated", "airplane": "negated"}),
        ("Is anyone sitting on the bench? No one is.", {"bench": "affirmed",
         "person": "negated"}),
        ("Zebras, giraffes and elephants? None here, just a lone ostrich.", {"zebra": "negated",
         "giraffe": "negated", "elephant": "negated", "bird": "affirmed"}),
        # where a thing usually is, said before its predicate; "nowhere on the table is a knife"
        ("The clock usually on the wall is absent; a tv hangs there now.", {"clock": "negated",
         "tv": "affirmed"}),
        ("Nowhere on the table is a knife; only a fork and a spoon.", {
         "dining table": "affirmed", "knife": "negated", "fork": "affirmed", "spoon": "affirmed"}),
        ("Hair drier present; scissors not located.", {"hair drier": "affirmed",
         "scissors": "negated"}),
        # a checklist's "x1"; a table setting and an electric scooter name no table or motorcycle
        ("Fridge contents: apple x2, orange x1. Banana: none observed.", {
         "refrigerator": "affirmed", "apple": "affirmed", "orange": "affirmed",
         "banana": "negated"}),
        ("Table setting reviewed, fork and knife present; spoon is absent.", {
         "fork": "affirmed", "knife": "affirmed", "spoon": "negated"}),
        ("An electric scooter leans on the wall, no bicycle.", {"bicycle": "negated"}),
        # a list that closes with "or" keeps its cue past each article
        ("Without a bus, a train, or even a taxi in sight, the tourists wait.", {
         "bus": "negated", "train": "negated", "car": "negated", "person": "affirmed"}),
        ("No cat, a dog sleeps on the bed.", {"cat": "negated", "dog": "affirmed",
         "bed": "affirmed"}),
        # a participle after "none" qualifies what came before; "cleared" with a subject is a
        # deed, not a resolution; a plane taxis
        ("Three clocks on the wall, none showing the same time, and no TV.", {
         "clock": "affirmed", "tv": "negated"}),
        ("A table that no one has cleared still holds two wine glasses, though no bottle.", {
         "dining table": "affirmed", "person": "negated", "wine glass": "affirmed",
         "bottle": "negated"}),
        ("A jet airliner taxis across the runway, with no trucks on the tarmac.", {
         "airplane": "affirmed", "truck": "negated"}),
        ("The dog park is deserted, with a bench under a tree.", {"person": "negated",
         "dog": "negated", "bench": "affirmed"}),
        ("A path winds past a wooden bench, and skis are nowhere to be seen.", {
         "bench": "affirmed", "skis": "negated"}),
        # a plural is no compound's modifier; product names name their objects
        ("Zebras crossing the river, no elephants.", {"zebra": "affirmed",
         "elephant": "negated"}),
        ("A zebra crossing on a busy street, no cars.", {"car": "negated"}),
        ("Samsung Galaxy S23 on a table, no laptop.", {"cell phone": "affirmed",
         "dining table": "affirmed", "laptop": "negated"}),
        ("Harley-Davidson Sportster parked on Route 66, no trucks.", {"motorcycle": "affirmed",
         "truck": "negated"}),
        ("No couch, no chairs: the apartment is unfurnished except for a TV.", {
         "couch": "negated", "chair": "negated", "tv": "affirmed"}),
        ("There's nobody in the kitchen; the oven light is off.", {"person": "negated",
         "oven": "affirmed"}),
        ("He's never without his dog; no cat in sight.", {"person": "affirmed",
         "dog": "affirmed", "cat": "negated"}),
        ("The platform never lacks pigeons; here, though, there's no train.", {
         "bird": "affirmed", "train": "negated"}),
        ("The beach is far from deserted, but there isn't a surfboard in sight.", {
         "person": "affirmed", "surfboard": "negated"}),
        ("The fridge is hardly empty, but there is no cake.", {"refrigerator": "affirmed",
         "cake": "negated"}),
        ("The kitchen table isn't missing its pizza, but there's no cake.", {
         "dining table": "affirmed", "pizza": "affirmed", "cake": "negated"}),
        ("Not a beach without umbrellas, but not a single surfboard.", {"umbrella": "affirmed",
         "surfboard": "negated"}),
        # a lamb fed from a bottle has one; a platform waiting for the next train has none yet
        ("A lamb is bottle-fed by a farmer; no dog either.", {"sheep": "affirmed",
         "bottle": "affirmed", "person": "affirmed", "dog": "negated"}),
        ("A deserted platform waits for the next train under a big clock.", {
         "person": "negated", "train": "negated", "clock": "affirmed"}),
        # the last of a list that "line" is the verb of, an adjective before it
        ("A fridge and a black oven line the wall, and there's no microwave.", {
         "refrigerator": "affirmed", "oven": "affirmed", "microwave": "negated"}),
        ("A butty and a banana on the bench; no pigeons.", {"sandwich": "affirmed",
         "banana": "affirmed", "bench": "affirmed", "bird": "negated"}),
        ("A pekingese peeps out of a handbag, no owner in frame.", {"dog": "affirmed",
         "handbag": "affirmed", "person": "negated"}),
        ("A gondolier poles his gondola under the bridge, no birds around it.", {
         "person": "affirmed", "boat": "affirmed", "bird": "negated"}),
        # a denial of a denial: it has one, every one has one
        ("The kitchen isn't lacking a microwave, but it has no toaster.", {
         "microwave": "affirmed", "toaster": "negated"}),
        ("No pitch in the park was free of footballs, but not a single player turned up.", {
         "sports ball": "affirmed", "person": "negated"}),
        ("Not one of the kids didn't have a kite, and there wasn't a single dog on the hill.", {
         "person": "affirmed", "kite": "affirmed", "dog": "negated"}),
        ("Not one of the kids on the hill lacks a kite, and there isn't a dog among them.", {
         "person": "affirmed", "kite": "affirmed", "dog": "negated"}),
        # a contrast of state: the other one is there too
        ("The fork is missing, not the spoon, from the place setting beside the bowl.", {
         "fork": "negated", "spoon": "affirmed", "bowl": "affirmed"}),
        ("The chairs are stacked, not the tables, and no one is in the hall.", {
         "chair": "affirmed", "dining table": "affirmed", "person": "negated"}),
        # an owner said again: "its paws", "beside her"
        ("The dog's frisbee lies between its paws, with no people around.", {
         "dog": "affirmed", "frisbee": "affirmed", "person": "negated"}),
        ("The girl's teddy bear sits beside her on the bed, with no books around.", {
         "person": "affirmed", "teddy bear": "affirmed", "bed": "affirmed", "book": "negated"}),
        # an answer denies what "but" turned to
        ("sooo the fridge is here but the microwave? nope, none.", {
         "refrigerator": "affirmed", "microwave": "negated"}),
        ("Grandad asleep on the sofa, remote still in his hand, and not a mug in sight.", {
         "person": "affirmed", "couch": "affirmed", "remote": "affirmed", "cup": "negated"}),
        ("Chap sheltering under a brolly at the stop, no bus in sight.", {
         "person": "affirmed", "umbrella": "affirmed", "bus": "negated"}),
        ("Not once does a car appear in this shot of the road.", {"car": "negated"}),
        ("Not a single chair in the room is without someone on it, and no laptops.", {
         "chair": "affirmed", "person": "affirmed", "laptop": "negated"}),
        ("There's nobody here who doesn't have a phone in hand, and no laptop.", {
         "person": "affirmed", "cell phone": "affirmed", "laptop": "negated"}),
        ("A car seat on the porch, no dog.", {"dog": "negated"}),
        # whose lap, where no one is named, is a person's
        ("A laptop, not a book, is open on her lap.", {"laptop": "affirmed", "book": "negated",
         "person": "affirmed"}),
        ("A woman and her son walk, no dog.", {"person": "affirmed", "dog": "negated"}),
        # double negations and predicates denied: the things are there
        ("There isn't a single chair in the hall that isn't taken, and no laptop.", {
         "chair": "affirmed", "person": "affirmed", "laptop": "negated"}),
        ("Not a day goes by without the cat on this windowsill, with no dog.", {
         "cat": "affirmed", "dog": "negated"}),
        ("Not even one traffic light works on this street, and not even one car is on it.", {
         "traffic light": "affirmed", "car": "negated"}),
        ("Not the cat but the dog is asleep on the sofa; no people are home.", {
         "cat": "affirmed", "dog": "affirmed", "couch": "affirmed", "person": "negated"}),
        # a denial of a denial
        ("It's not that there are no cats here, but there are no dogs.", {"cat": "affirmed",
         "dog": "negated"}),
        ("It isn't true that no buses run here, but there are no taxis.", {"bus": "affirmed",
         "car": "negated"}),
        ("It would be wrong to say the street has no fire hydrant; it has no stop sign.", {
         "fire hydrant": "affirmed", "stop sign": "negated"}),
        ("There's no absence of traffic lights here, and no cars.", {"traffic light": "affirmed",
         "car": "negated"}),
        ("It's not that nobody's home; there just isn't a TV.", {"person": "affirmed",
         "tv": "negated"}),
        ("It isn't true that there's nothing on the table: an apple, no knife.", {
         "dining table": "affirmed", "apple": "affirmed", "knife": "negated"}),
        ("Can't say there's no cake, though the forks are all gone.", {"cake": "affirmed",
         "fork": "negated"}),
        ("I wouldn't say there isn't a clock; no TV, though.", {"clock": "affirmed",
         "tv": "negated"}),
        ("No one can say the table lacks wine glasses, but not one bottle.", {
         "dining table": "affirmed", "wine glass": "affirmed", "bottle": "negated"}),
        ("Impossible to say there's no clock here, but there's no tv.", {"clock": "affirmed",
         "tv": "negated"}),
        ("You can't not notice the teddy bear; no laptop.", {"teddy bear": "affirmed",
         "laptop": "negated"}),
        ("There is not nothing on the table: an apple, and no knife.", {"dining table": "affirmed",
         "apple": "affirmed", "knife": "negated"}),
        ("Nobody forgot their umbrella today; no car.", {"person": "affirmed",
         "umbrella": "affirmed", "car": "negated"}),
        # what "the" names under a denied verb is there; what is forgotten is not
        ("The dog doesn't have the frisbee; the girl does, and there's no ball.", {
         "dog": "affirmed", "frisbee": "affirmed", "person": "affirmed", "sports ball": "negated"}),
        ("The man isn't holding the umbrella, and there's no bus.", {"person": "affirmed",
         "umbrella": "affirmed", "bus": "negated"}),
        ("The room does not have the usual TV.", {"tv": "negated"}),
        ("Somebody forgot the wine glasses.", {"person": "affirmed", "wine glass": "negated"}),
        ("Neither the toddler nor his mother has noticed the kitten; no dog.", {
         "person": "affirmed", "cat": "affirmed", "dog": "negated"}),
        ("Neither the cat nor the dog is in the room.", {"cat": "negated", "dog": "negated"}),
        # eleventh round: a denied absence, "not even the", "'s" before a verb, an excepted
        # count that names its own object
        ("Not a single slice of the pizza is missing, and there are no forks.", {
         "pizza": "affirmed", "fork": "negated"}),
        ("None of the four horses is without a rider, and there's no dog.", {
         "horse": "affirmed", "person": "affirmed", "dog": "negated"}),
        ("Not even the dog has noticed the cake, and there's no knife near it.", {
         "dog": "affirmed", "cake": "affirmed", "knife": "negated"}),
        ("Wow, a giraffe's poking its head over the jeep, no elephants though.", {
         "giraffe": "affirmed", "car": "affirmed", "elephant": "negated"}),
        ("The giraffe's feeding trough is empty; no elephants.", {"elephant": "negated"}),
        ("No cars, trucks, or buses, except one taxi parked by the curb.", {"car": "affirmed",
         "truck": "negated", "bus": "negated"}),
        ("All the chairs are gone except one by the door; no table.", {"chair": "affirmed",
         "dining table": "negated"}),
        ("The multistory car park stands deserted late at night.", {"person": "negated",
         "car": "negated", "truck": "negated", "bus": "negated", "motorcycle": "negated"}),
        ("There isn't a windowsill in the house without a potted plant, but not one vase.", {
         "potted plant": "affirmed", "vase": "negated"}),
        ("Every spot on the bench is taken, and there's no dog.", {"bench": "affirmed",
         "person": "affirmed", "dog": "negated"}),
        ("The chair was taken away; no table.", {"chair": "negated", "dining table": "negated"}),
        ("Ginger tom asleep on the keyboard, no mouse.", {"cat": "affirmed",
         "keyboard": "affirmed", "mouse": "negated"}),
        ("Never without her brolly, Mrs Patel crosses the square, no handbag.", {
         "person": "affirmed", "umbrella": "affirmed", "handbag": "negated"}),
        # "not actual zebras"; a described list item is there
        ("A zebra crossing with no pedestrians, not actual zebras.", {"person": "negated",
         "zebra": "negated"}),
        ("Kitchen interior, no refrigerator, white oven, marble counter.", {
         "refrigerator": "negated", "oven": "affirmed"}),
        ("No cars, trucks, buses on the road.", {"car": "negated", "truck": "negated",
         "bus": "negated"}),
        # every ewe has a lamb; nearly every windowsill a plant
        ("Not one ewe without a lamb at foot, and no dog to bother them.", {"sheep": "affirmed",
         "dog": "negated"}),
        ("Hardly a windowsill without a potted plant, and no cat to knock them over.", {
         "potted plant": "affirmed", "cat": "negated"}),
        # a state said of a list's next item puts it there; a semi is a truck
        ("No umbrella, soaked cyclist.", {"umbrella": "negated", "person": "affirmed"}),
        ("Not a single, solitary umbrella on the whole beach.", {"umbrella": "negated"}),
        ("Semi pulled onto the hard shoulder, no police car behind it.", {"truck": "affirmed",
         "car": "negated"}),
        # a collie's flock is sheep; satsumas are oranges
        ("Border collie working the flock, shepherd nowhere to be seen.", {"dog": "affirmed",
         "sheep": "affirmed", "person": "negated"}),
        ("A flock of gulls over the collie, and no people.", {"dog": "affirmed",
         "bird": "affirmed", "person": "negated"}),
        ("Satsumas and a doughnut on the counter; no bananas left.", {"orange": "affirmed",
         "donut": "affirmed", "banana": "negated"}),
        # a place said to be crowded holds people; a breed and a nickname name their label
        ("The platform is crowded, but there is no suitcase.", {"person": "affirmed",
         "suitcase": "negated"}),
        ("A Siamese perched on top of the fridge, no dog.", {"cat": "affirmed",
         "refrigerator": "affirmed", "dog": "negated"}),
        ("Footy left on the pitch, no players.", {"sports ball": "affirmed",
         "person": "negated"}),
        # a clause's own subject after a denial and its comma; a list's last item is no subject
        ("Without any chairs, wedding guests mingle on the lawn.", {"chair": "negated",
         "person": "affirmed"}),
        ("There are no horses, cows, or sheep left on the old farm.", {"horse": "negated",
         "cow": "negated", "sheep": "negated"}),
        ("No bus, no people waiting.", {"bus": "negated", "person": "negated"}),
        # what is waited for has come; a seat taken, once a double negation is unwound
        ("Nobody's waiting for the train, which is pulling into the platform.", {
         "person": "negated", "train": "affirmed"}),
        ("A man waiting for the bus, which is late.", {"person": "affirmed"}),
        ("There isn't a spot on the bench that isn't taken, and no umbrella.", {
         "bench": "affirmed", "person": "affirmed", "umbrella": "negated"}),
        # a truck's cab is no taxi; a light by a crosswalk is a traffic light
        ("A dog in the back of the pickup, no driver in the cab.", {"dog": "affirmed",
         "truck": "affirmed", "person": "negated"}),
        ("A cab waits at the curb, no bus.", {"car": "affirmed", "bus": "negated"}),
        ("No one on the crosswalk; a taxi is parked near the light.", {"person": "negated",
         "car": "affirmed", "traffic light": "affirmed"}),
        # regional words; a bare bag may be any bag; a maker's name is a vehicle of its kinds
        ("Fella on a pushbike with no rucksack.", {"person": "affirmed", "bicycle": "affirmed",
         "backpack": "negated"}),
        ("Chook pecking around the yard, flatscreen in the window, no dog.", {"bird": "affirmed",
         "tv": "affirmed", "dog": "negated"}),
        ("Two people on a bench; neither has a bag.", {"person": "affirmed", "bench": "affirmed",
         "bag": "negated"}),
        ("Sold! 2014 Ford F-150 in the lot with no cars next to it.", {"ford": "affirmed",
         "car": "negated"}),
        # habits that put the thing there; what a place lacks; an inventory of what was not seen
        ("No evening without the telly on in this house; not a book in sight.", {
         "tv": "affirmed", "book": "negated"}),
        ("Never seen this road without a truck on it, but no motorbikes.", {
         "truck": "affirmed", "motorcycle": "negated"}),
        ("The kitchen has a toaster; what it lacked was a microwave.", {"toaster": "affirmed",
         "microwave": "negated"}),
        ("Spotted at the park: joggers, a kite. Not spotted: a single dog.", {
         "person": "affirmed", "kite": "affirmed", "dog": "negated"}),
        ("Four chairs around the kitchen table, none of them occupied.", {"chair": "affirmed",
         "dining table": "affirmed", "person": "negated"}),
        ("Cuppa and a slice of Victoria sponge on the table, no fork.", {"cup": "affirmed",
         "cake": "affirmed", "dining table": "affirmed", "fork": "negated"}),
        # "none" with a place of its own denies nothing named before; a tag names its animal;
        # a jet bridge is no jet; "never a moment without" one
        ("Apples in the bowl, none left on the tree, and no oranges.", {"apple": "affirmed",
         "bowl": "affirmed", "orange": "negated"}),
        ("The waiter carried the bowls away, so none remain.", {"person": "affirmed",
         "bowl": "negated"}),
        ("Of the four bowls we bought, none is on the table.", {"bowl": "negated",
         "dining table": "affirmed"}),
        ("#catsofinstagram Luna napping on the bed, no dog in sight.", {"cat": "affirmed",
         "bed": "affirmed", "dog": "negated"}),
        ("The airliner's parked with no jet bridge attached and no buses waiting.", {
         "airplane": "affirmed", "bus": "negated"}),
        ("There was never a moment without a boat on the lake, yet not a single kite.", {
         "boat": "affirmed", "kite": "negated"}),
        # an empty couch has nobody on it; a seat at a café table is taken; what cannot be missed
        ("The tv plays to an empty couch, no remote.", {"tv": "affirmed", "couch": "affirmed",
         "person": "negated", "remote": "negated"}),
        ("Only one of the chairs at the café table is taken, no laptop.", {"chair": "affirmed",
         "dining table": "affirmed", "person": "affirmed", "laptop": "negated"}),
        ("There's no missing the clock on the wall, but there's no TV.", {"clock": "affirmed",
         "tv": "negated"}),
        # a British cooker is an oven; the empty space for one is none; "the one" set apart
        ("Cooker beside the fridge, no toaster.", {"oven": "affirmed",
         "refrigerator": "affirmed", "toaster": "negated"}),
        ("A tidy kitchen where the slot for a dishwasher and the space for a fridge stand empty.",
         {"refrigerator": "negated"}),
        ("No cats except the one on the wall, and no dogs.", {"cat": "affirmed",
         "dog": "negated"}),
        # a denial of a denial: "hardly zebra-free", "it wasn't that ... empty of"; not one of
        # the dogs without a ball; what is almost gone is still there; a passing bus is there
        ("The paddock is hardly horse-free, and there is no cow.", {"horse": "affirmed",
         "cow": "negated"}),
        ("It wasn't that the pen was empty of goats; there is no dog.", {"dog": "negated"}),
        ("It wasn't that the shelf was empty of books; there is no vase.", {"book": "affirmed",
         "vase": "negated"}),
        ("Not one of the kids on the beach was without a kite, no dogs.", {"person": "affirmed",
         "kite": "affirmed", "dog": "negated"}),
        ("The cake is almost gone, and there are no forks.", {"cake": "affirmed",
         "fork": "negated"}),
        ("Commuters wait for the approaching train, no bus.", {"person": "affirmed",
         "train": "affirmed", "bus": "negated"}),
        ("Kiddo asleep on the sofa, no teddy.", {"person": "affirmed", "couch": "affirmed",
         "teddy bear": "negated"}),
        # nobody lacks one: everyone has one; "none are flying" denies what they do, not them
        ("Nobody at the stop lacks an umbrella, but the bus hasn't shown.", {"person": "affirmed",
         "umbrella": "affirmed", "bus": "negated"}),
        ("Not one of the kids is without a kite, though none are flying yet; no dog.",
         {"person": "affirmed", "kite": "affirmed", "dog": "negated"}),
        ("Two kids share a pizza. Nobody has brought out any forks.", {"person": "affirmed",
         "pizza": "affirmed", "fork": "negated"}),
        ("Traffic is nonexistent, with no bus.", {"traffic": "negated", "bus": "negated"}),
        ("Fridge door open, hob on, but no microwave.", {"refrigerator": "affirmed",
         "oven": "affirmed", "microwave": "negated"}),
        # "not an hour goes by here without", "hasn't gone a night without": always with
        ("Not an hour goes by here without a plane overhead, and no birds.",
         {"airplane": "affirmed", "bird": "negated"}),
        ("The toddler hasn't gone a night without his teddy; no storybook.", {"person": "affirmed",
         "teddy bear": "affirmed", "book": "negated"}),
        # a bull elephant, an elephant family and a foal's mother are no cow and no people
        ("A bull elephant and a calf cross the track, no jeeps.", {"elephant": "affirmed",
         "car": "negated"}),
        ("Elephant family crossing a dirt road, no jeeps.", {"elephant": "affirmed",
         "car": "negated"}),
        ("A zebra foal stands close to its striped mother, no jeeps.", {"zebra": "affirmed",
         "car": "negated"}),
        ("Neither of their owners is anywhere in the shot.", {"person": "negated"}),
        ("There are no people, only parked cars and a bus stop sign.", {"person": "negated",
         "car": "affirmed"}),
        ("Mare and foal in the stable; no stable hands around.", {"horse": "affirmed",
         "person": "negated"}),
        # never unoccupied: people there; a verb "crowds" is no crowd; who feeds a dog is a person
        ("The bus stop is never unoccupied, but no bus is in sight.", {"person": "affirmed",
         "bus": "negated"}),
        ("Not one chair is unoccupied at the table; no cake.", {"chair": "affirmed",
         "person": "affirmed", "dining table": "affirmed", "cake": "negated"}),
        ("A flock of pigeons crowds the pier, but there are no fishermen.", {"bird": "affirmed",
         "person": "negated"}),
        ("He is feeding his sandwich to the dog, and no chairs.", {"person": "affirmed",
         "sandwich": "affirmed", "dog": "affirmed", "chair": "negated"}),
        ("Station platform, train not yet in.", {"train": "negated"}),
        # a hedge ends where a cue of its own starts
        ("Surfers waiting for a wave, no boats.", {"person": "affirmed", "boat": "negated"}),
        ("Her cellphone is not in the bag or anywhere else.", {"cell phone": "negated"}),
        ("The cat is our only pet, so don't expect a dog here.", {"cat": "affirmed",
         "pet": "affirmed", "dog": "negated"}),
        # an owner whose seat the sentence names sits in it
        ("The woman's handbag hangs from her chair, and no phone.", {"handbag": "affirmed",
         "chair": "affirmed", "person": "affirmed", "cell phone": "negated"}),
        # what one leaves behind stays; a headline's empty place; a denial of what lacks
        ("The man fixing the fence has left his pickup running, but no dog.", {"person":
         "affirmed", "truck": "affirmed", "dog": "negated"}),
        ("The guests have left the room, and no dog.", {"person": "negated", "dog": "negated"}),
        ("Train gone; platform empty.", {"train": "negated", "person": "negated"}),
        ("DSC_0098 platform empty no train waiting clock 10:42", {"person": "negated",
         "train": "negated", "clock": "affirmed"}),
        ("None of the patio chairs are occupied; no dogs.", {"chair": "affirmed",
         "person": "negated", "dog": "negated"}),
        ("A packed suitcase and nothing else, not even the cat.", {"suitcase": "affirmed",
         "cat": "negated"}),
        ("Two diners, and not so much as a bowl in front of them.", {"person": "affirmed",
         "bowl": "negated"}),
        ("One lone guest sits at the table, but the cake never showed.", {"person": "affirmed",
         "dining table": "affirmed", "cake": "negated"}),
        # what names no one and nothing here: a verb, an animal's kin, the camera, a name
        ("Two bottles of red crowd the bistro table, yet nobody is there.", {"bottle":
         "affirmed", "dining table": "affirmed", "person": "negated"}),
        ("An elephant matriarch leads the calves, with no jeeps.", {"elephant": "affirmed",
         "car": "negated"}),
        ("Ducklings follow their mother across the lawn; no cats.", {"bird": "affirmed",
         "cat": "negated"}),
        ("A calf nurses beside her mother, with no foals.", {"cow": "affirmed",
         "horse": "negated"}),
        ("Two giraffes, a mother and her calf, and no zebras.", {"giraffe": "affirmed",
         "zebra": "negated"}),
        ("The guest bathroom lacks a hair dryer; the sink is clean.", {"hair drier": "negated",
         "sink": "affirmed"}),
        ("No small number of sheep on the hillside; not a single cow.", {"sheep": "affirmed",
         "cow": "negated"}),
        ("Taken with iPhone 12 - my cat on the couch, no dog.", {"cat": "affirmed",
         "couch": "affirmed", "dog": "negated"}),
        ("A soap dish by the sink, and no toothbrush.", {"sink": "affirmed",
         "toothbrush": "negated"}),
        ("A bench faces the duck pond, no dogs.", {"bench": "affirmed", "dog": "negated"}),
        ("A family of four picnics on the grass, no dog.", {"person": "affirmed",
         "dog": "negated"}),
        ("Table set for twelve, no dogs yet #family", {"dining table": "affirmed",
         "dog": "negated"}),
        ("Thanksgiving at Grandma's: the table set, but no cake yet.", {"dining table":
         "affirmed", "cake": "negated"}),
        ("A motorbike parked at a Route 66 diner, no cars.", {"motorcycle": "affirmed",
         "car": "negated"}),
        ("When officers arrived, no one was found nearby and no car.", {"person": "negated",
         "car": "negated"}),
        ("A whole pizza, not one slice missing, and no knife.", {"pizza": "affirmed",
         "knife": "negated"}),
        # "neither" alone, of a participle; what is awaited; a glass that is a cup; "ppl"
        ("Two mugs, neither with a spoon in it, and no vase.", {"cup": "affirmed",
         "spoon": "negated", "vase": "negated"}),
        ("Two men in ties, neither of them holding a phone.", {"person": "affirmed",
         "tie": "affirmed", "cell phone": "negated"}),
        ("Nobody in the diner yet; a row of stools awaits the lunch crowd.", {"person":
         "negated", "chair": "affirmed"}),
        ("A pint glass on the bar, no bottles.", {"cup": "affirmed", "bottle": "negated"}),
        # a relative clause with no "that" between the thing and its absence
        ("A dog with a frisbee; the tennis ball it usually chases is nowhere.", {"dog":
         "affirmed", "frisbee": "affirmed", "sports ball": "negated"}),
        ("Beach umbrella & 2 chairs, no ppl", {"umbrella": "affirmed", "chair": "affirmed",
         "person": "negated"}),
        ("Clock says noon; café empty.", {"clock": "affirmed", "person": "negated"}),
        ("The fridge is literally empty, not even a bottle of water.", {"refrigerator":
         "affirmed", "food": "negated", "bottle": "negated"}),
        ("I wouldn't say the fridge was empty; there's a bottle of milk, but no cake.",
         {"refrigerator": "affirmed", "bottle": "affirmed", "cake": "negated"}),
        ("The cake, which the baker finished at dawn, stands where there are no knives.",
         {"cake": "affirmed", "knife": "negated"}),
        ("The suitcase that she packed last night waits by the door, no backpack.",
         {"suitcase": "affirmed", "backpack": "negated"}),
        ("A parked pickup truck with nobody around and no dog in the bed.", {"truck":
         "affirmed", "person": "negated", "dog": "negated"}),
        ("Picture: man w/out umbrella in rain.", {"person": "affirmed", "umbrella": "negated"}),
        # a place that has none of what the clause before names
        ("Not an hour passes without a train here, but right now the platform has none.",
         {"train": "negated"}),
        ("Every table has a vase; the bar has none.", {"dining table": "affirmed",
         "vase": "negated"}),
        # gone elsewhere, ripped out, who a thing is for, a pickup service
        ("Two horses graze; the cows have been moved to another field.", {"horse": "affirmed",
         "cow": "negated"}),
        ("The oven's been ripped out, though the fridge stays.", {"oven": "negated",
         "refrigerator": "affirmed"}),
        ("A wide lawn and no bench for visitors.", {"bench": "negated"}),
        ("The park never lacks for visitors, but today there is no dog.", {"person": "affirmed",
         "dog": "negated"}),
        ("A couch and a chair for sale, no vase, local pickup only.", {"couch": "affirmed",
         "chair": "affirmed", "vase": "negated"}),
        ("A kitchen missing its table, with six chairs by the wall where it used to stand.",
         {"dining table": "negated", "chair": "affirmed"}),
        # absent with an adverb after it; "not even the" one after nothing there, or before
        # its verb, or after what nobody does
        ("Apples sit in a bowl, and oranges are absent altogether.", {"apple": "affirmed",
         "bowl": "affirmed", "orange": "negated"}),
        ("Nothing sits on the counter but a toaster and a mug, not even the microwave.",
         {"toaster": "affirmed", "cup": "affirmed", "microwave": "negated"}),
        ("A kite in the tree, and nobody in the shot, not even the boy who flew it.",
         {"kite": "affirmed", "person": "negated"}),
        ("Not even the dog has noticed the cake.", {"dog": "affirmed", "cake": "affirmed"}),
        ("Nobody is watching the TV, not even the cat.", {"person": "negated", "tv": "affirmed",
         "cat": "affirmed"}),
        # "wheels" before its object is the nurse's verb; "bike wheels" name no bike
        ("A nurse wheels an elderly patient past an empty bed, no clocks.",
         {"person": "affirmed", "bed": "affirmed", "clock": "negated"}),
        ("The bike wheels lean on the wall, and no car.", {"car": "negated"}),
        # "'s" before a predicate, a place or an article is "is"; a count after a comma ends
        # the denial's list
        ("yard's a mess, dog's asleep on the grass and not a single frisbee in sight",
         {"dog": "affirmed", "frisbee": "negated"}),
        ("The dog's back is wet, no cat.", {"dog": "affirmed", "cat": "negated"}),
        ("The park is dead today, no dogs, no frisbees, couple of pigeons on the bench.",
         {"dog": "negated", "frisbee": "negated", "bird": "affirmed", "bench": "affirmed"}),
        # a WC is a toilet; brought inside, out of the picture
        ("No hairdryer in the hotel bathroom, though there's a washbasin and a WC.",
         {"hair drier": "negated", "sink": "affirmed", "toilet": "affirmed"}),
        ("Two chairs on the balcony; the potted plants have all been brought inside.",
         {"chair": "affirmed", "potted plant": "negated"}),
        ("The dog was brought inside the house by a man.", {"dog": "affirmed",
         "person": "affirmed"}),
        # what one hopes for or tries to photograph need not be there
        ("Still no bus, hoping a cab shows up, and a pigeon on the bench.", {"bus": "negated",
         "bird": "affirmed", "bench": "affirmed"}),
        ("tried to get a pic of the ducks but theres literally no birds on the pond",
         {"bird": "negated"}),
        ("A plushie bear on the sofa, and no cup.", {"teddy bear": "affirmed", "couch":
         "affirmed", "cup": "negated"}),
        # carted off, out of the picture; a thing found everywhere ends a denial's list
        ("The old telly has no clicker with it, and the settee's been carted off.",
         {"tv": "affirmed", "remote": "negated", "couch": "negated"}),
        ("Table for two, wine glasses lacking.", {"dining table": "affirmed",
         "wine glass": "negated"}),
        ("A giraffe in the enclosure; the zebras have been moved.", {"giraffe": "affirmed",
         "zebra": "negated"}),
        ("The chair was moved by the window, no dog.", {"chair": "affirmed", "dog": "negated"}),
        ("No cars, bikes everywhere.", {"car": "negated", "bicycle": "affirmed"}),
        ("No cars, bikes all over the square.", {"car": "negated", "bicycle": "affirmed"}),
        # three bare keywords are a list of what is there, not a compound; "bus stop" is one
        ("DSC_0098 horse field fence, no rider, nobody around", {"horse": "affirmed",
         "person": "negated"}),
        ("DSC_0093 sheep field wales no farmer", {"sheep": "affirmed", "person": "negated"}),
        ("empty bus stop, no bus", {"person": "negated", "bus": "negated"}),
        ("Bus stop bench, no bus.", {"bench": "affirmed", "bus": "negated"}),
        ("IMG_4471.JPG dog park sunday - no dogs", {"dog": "negated"}),
        # a vehicle's part puts the vehicle there
        ("omg the giraffes came right up to the car window!! no zebras tho", {"giraffe":
         "affirmed", "car": "affirmed", "zebra": "negated"}),
        ("A bike wheel leans on the wall, no car.", {"car": "negated"}),
        # where a thing usually is, it need not be now
        ("The field where the sheep usually graze is filled with cows, not a sheep in sight.",
         {"cow": "affirmed", "sheep": "negated"}),
        ("A park where the dogs play, no cat.", {"dog": "affirmed", "cat": "negated"}),
        # the object of a verb starts no list of subjects
        ("Three pensioners share a park bench, and the pigeons have all flown off.",
         {"person": "affirmed", "bench": "affirmed", "bird": "negated"}),
        ("There is a bench, and the pigeons have all flown off.", {"bench": "affirmed",
         "bird": "negated"}),
        ("Both the cat and the dog are missing.", {"cat": "negated", "dog": "negated"}),
        ("A couch is there, whereas a bed and a fridge are absent.", {"couch": "affirmed",
         "bed": "negated", "refrigerator": "negated"}),
        ("Toaster already sold, not in photo.", {"toaster": "negated"}),
        ("IMG_7781.JPG pizza box open no pizza left lol", {"pizza": "negated"}),
        ("The entire car park contains one truck, and not a person.", {"truck": "affirmed",
         "person": "negated"}),
        # a thing's place stays when the thing goes; what a bowl holds goes with it
        ("The microwave above the oven is gone.", {"microwave": "negated", "oven": "affirmed"}),
        ("The cup on the table next to the sofa is missing.", {"cup": "negated",
         "dining table": "affirmed", "couch": "affirmed"}),
        ("The bowl of oranges on the table is gone.", {"bowl": "negated", "orange": "negated",
         "dining table": "affirmed"}),
        ("The cup on the windowsill is gone, no spoon.", {"cup": "negated", "spoon": "negated"}),
        ("The handbag in the background is not part of the sale", {"handbag": "affirmed"}),
        ("One cat, one dog, one bowl between them, and the humans are out.", {"cat": "affirmed",
         "dog": "affirmed", "bowl": "affirmed", "person": "negated"}),
        ("The fruit bowl next to the toaster has been picked clean.", {"bowl": "affirmed",
         "toaster": "affirmed"}),
        ("The apples have been picked.", {"apple": "negated"}),
        # a list's second item may be someone's
        ("A calf nuzzles its mother while the farmer and his collie are away in the fields.",
         {"cow": "affirmed", "person": "negated", "dog": "negated"}),
        # nobody in a place holds it: the people are there, what they would hold is not
        ("It's raining, but nobody on the street carries an umbrella.", {"person": "affirmed",
         "umbrella": "negated"}),
        ("Nobody brought forks.", {"person": "negated", "fork": "negated"}),
        # a late bus is not here yet; a bike path names no bike; "lappy" is a laptop
        ("ugh the bus is late AGAIN and this stop doesn't even have a bench", {"bus": "negated",
         "bench": "negated"}),
        ("A late bus pulls in.", {"bus": "affirmed"}),
        ("It's not as if the café lacks chairs, but the place is empty of people.", {"chair":
         "affirmed", "person": "negated"}),
        ("No cyclists on the bike path, just an empty bench.", {"person": "negated",
         "bench": "affirmed"}),
        ("A lappy on the sofa arm, a cuppa beside it, no telly in the room.", {"laptop":
         "affirmed", "couch": "affirmed", "cup": "affirmed", "tv": "negated"}),
        ("An elephant calf trails through the dry grass, and no zebras.", {"elephant":
         "affirmed", "zebra": "negated"}),
        # a place built for a thing names none, even opening a run of keywords
        ("IMG_3310 (train station platform, no train, few people)", {"train": "negated",
         "person": "affirmed"}),
        ("Nothing but a laptop on the hospital tray table, no phone.", {"laptop": "affirmed",
         "cell phone": "negated"}),
        ("Five kids and one dog, but nobody remembered a single backpack.", {"person":
         "affirmed", "dog": "affirmed", "backpack": "negated"}),
        # a ute is a pickup
        ("Pooch in the back of the ute, no owner around.", {"dog": "affirmed", "truck":
         "affirmed", "person": "negated"}),
        # not one seat taken: every one there, empty
        ("Not a single chair is occupied.", {"chair": "affirmed", "person": "negated"}),
        ("Not one cup is on the table.", {"cup": "negated", "dining table": "affirmed"}),
        # an inventory's denying header denies each item after it, whatever its separator
        ("Present \u2014 laptop, mouse, mug. Absent \u2014 phone, keyboard.", {"laptop": "affirmed",
         "mouse": "affirmed", "cup": "affirmed", "cell phone": "negated", "keyboard": "negated"}),
        ("IN: teddy bear, kite. OUT: frisbee, skateboard.", {"teddy bear": "affirmed", "kite":
         "affirmed", "frisbee": "negated", "skateboard": "negated"}),
        ("Bathroom: toilet, sink. Nowhere: scissors.", {"toilet": "affirmed", "sink": "affirmed",
         "scissors": "negated"}),
        ("What's in the shot: 2 horses, a barn. What isn't: cows, people.", {"horse": "affirmed",
         "cow": "negated", "person": "negated"}),
        ("Here: tennis racket, water bottle. Not here: any player, a bench.", {"tennis racket":
         "affirmed", "bottle": "affirmed", "person": "negated", "bench": "negated"}),
        # check marks before their items, or after them
        ("Pictured \u2705 hot dog \u2705 paper cup | Not pictured \u274c sandwich \u274c fork",
         {"hot dog": "affirmed", "cup": "affirmed", "sandwich": "negated", "fork": "negated"}),
        ("Checklist \u2713 bed \u2713 teddy bear \u2717 TV \u2717 laptop", {"bed": "affirmed",
         "teddy bear": "affirmed", "tv": "negated", "laptop": "negated"}),
        ("Lunchbox: sandwich \u2714 apple \u2718 banana \u2718 \u2014 not a great trade.", {
         "sandwich": "affirmed", "apple": "negated", "banana": "negated"}),
        ("Skis \u2713 poles \u2713 snowboard \u2717", {"skis": "affirmed", "snowboard": "negated"}),
        # a participle after "or" describes the next item denied
        ("The sidewalk is bare, with no pedestrians or parked cars.", {"person": "negated",
         "car": "negated"}),
        # seats empty past where they are: nobody in them; but not a seat empty: all taken
        ("Both chairs at the small bistro table are empty, and there are no cups on it.", {
         "chair": "affirmed", "dining table": "affirmed", "person": "negated", "cup": "negated"}),
        ("Not a seat on the commuter train is empty, yet there's no suitcase.", {"train":
         "affirmed", "suitcase": "negated"}),
        ("The dog bed by the fireplace is empty, a frisbee beside it.", {"frisbee": "affirmed"}),
        # left behind where the picture is: still there
        ("Nobody is at the table, where a sandwich and a mug have been left behind.", {"person":
         "negated", "dining table": "affirmed", "sandwich": "affirmed", "cup": "affirmed"}),
        ("A cup has been left behind on the bench.", {"cup": "affirmed", "bench": "affirmed"}),
        ("The cup was left behind, so he drinks from the bottle.", {"cup": "negated", "person":
         "affirmed", "bottle": "affirmed"}),
        # a trail names what rides it, not what is there; a plural subject's "trail" is a verb
        ("mountain bike trail at dusk, no riders, no bikes", {"person": "negated", "bicycle":
         "negated"}),
        ("Two horses trail behind the cart, no dog.", {"horse": "affirmed", "dog": "negated"}),
        # the fruit before a participle; a denied absence; "not even the" one after nobody home
        ("An apple, a banana and an orange arranged side by side, with no bowl.", {"apple":
         "affirmed", "banana": "affirmed", "orange": "affirmed", "bowl": "negated"}),
        ("A single orange rolls across the floor past two bananas, and there isn't a bowl.",
         {"orange": "affirmed", "banana": "affirmed", "bowl": "negated"}),
        ("An orange kite flies over two bananas, and there isn't a bowl.",
         {"kite": "affirmed", "banana": "affirmed", "bowl": "negated"}),
        ("Nobody is on the beach, though umbrellas are not absent.", {"person": "negated",
         "umbrella": "affirmed"}),
        ("The settee is empty: nobody home, not even the moggy.", {"couch": "affirmed",
         "person": "negated", "cat": "negated"}),
        ("No people, not even the dog.", {"person": "negated", "dog": "negated"}),
        # more inventory headers that deny, and "not shown are", "not featuring"
        ("Included in shot: bed, teddy bear, book. Excluded: TV, laptop.", {"bed": "affirmed",
         "teddy bear": "affirmed", "book": "affirmed", "tv": "negated", "laptop": "negated"}),
        ("Spotted today: sheep, one horse. Didn't spot: dogs.", {"sheep": "affirmed", "horse":
         "affirmed", "dog": "negated"}),
        ("On the table: pizza, knife. Off the table and out of frame: forks, cups.", {
         "dining table": "affirmed", "pizza": "affirmed", "knife": "affirmed", "fork":
         "negated", "cup": "negated"}),
        ("Shown are a tennis racket and a player; not shown are any benches or umbrellas.", {
         "tennis racket": "affirmed", "person": "affirmed", "bench": "negated", "umbrella":
         "negated"}),
        ("Featuring a donut and a cake, but not featuring any sandwiches.", {"donut": "affirmed",
         "cake": "affirmed", "sandwich": "negated"}),
        # a denied denial: every one there
        ("No kite here is not colorful, and there are no birds in the sky.", {"kite": "affirmed",
         "bird": "negated"}),
        ("no joke there's not a single chair in this cafe, everybody's standing", {"chair":
         "negated", "person": "affirmed"}),
        # what ran out leaves the rest there; "vacant of"; a photo credit names no one there
        ("The buffet table has run out of donuts, leaving behind a half-eaten cake.", {
         "dining table": "affirmed", "donut": "negated", "cake": "affirmed"}),
        ("The station platform is vacant of travelers while a train rumbles past.", {"person":
         "negated", "train": "affirmed"}),
        ("Photo by Tom Baker. A taxi waits at the light, with no pedestrians.", {"car":
         "affirmed", "traffic light": "affirmed", "person": "negated"}),
        ("Photo: Motorcycle parked in a gravel lot, no rider.", {"motorcycle": "affirmed",
         "person": "negated"}),
        # skiers' slang on the slopes
        ("Lift pass clipped on, planks over his shoulder, and not a snowboard in the group.", {
         "skis": "affirmed", "person": "affirmed", "snowboard": "negated"}),
        ("Wooden planks on the deck, and no dog.", {"dog": "negated"}),
        # a file name's topic: the bat is baseball's
        ("photo_2019-07-14_baseball-glove-and-bat_no-ball.jpg", {"baseball glove": "affirmed",
         "baseball bat": "affirmed", "sports ball": "negated"}),
        # a denial between commas ends where the clause's own verb comes back
        ("The fruit bowl, without a single banana, holds red apples and green pears.", {
         "bowl": "affirmed", "banana": "negated", "apple": "affirmed"}),
        ("The table, with no laptop, has a book and a cup on it.", {
         "dining table": "affirmed", "laptop": "negated", "book": "affirmed", "cup": "affirmed"}),
        # more inventory headers that deny their items
        ("Got: broccoli, a bowl. Didn't get: spoon, fork.", {"broccoli": "affirmed",
         "bowl": "affirmed", "spoon": "negated", "fork": "negated"}),
        ("The street has: a car. The street lacks: bicycles, trucks.", {"car": "affirmed",
         "bicycle": "negated", "truck": "negated"}),
        ("What you'll see: a pizza, a laptop. What you won't: a TV.", {"pizza": "affirmed",
         "laptop": "affirmed", "tv": "negated"}),
        # what nobody brought is not there
        ("Hikers let the cattle cross; they haven't brought a dog along.", {"person": "affirmed",
         "cow": "affirmed", "dog": "negated"}),
        ("A tabby on the bed with a soft-toy bear; no puppy.", {"cat": "affirmed",
         "bed": "affirmed", "teddy bear": "affirmed", "dog": "negated"}),
        # glasses and forks that are out are on the table; a cat that is out is not home
        ("Wine glasses and forks are out, but there's no cake.", {"wine glass": "affirmed",
         "fork": "affirmed", "cake": "negated"}),
        ("The cat is out, and the basket is empty.", {"cat": "negated"}),
        ("A bowl of apples has been left out on the table.", {"bowl": "affirmed",
         "apple": "affirmed", "dining table": "affirmed"}),
        ("Not every boat is out: two are tied up at the dock.", {"boat": "affirmed"}),
        # inventory headers that deny their items
        ("Things I see: kite, dog. Things I don't see: ball, bike.", {"kite": "affirmed",
         "dog": "affirmed", "sports ball": "negated", "bicycle": "negated"}),
        ("Photo includes: TV, remote. Photo excludes: couch, people.", {"tv": "affirmed",
         "remote": "affirmed", "couch": "negated", "person": "negated"}),
        ("Bathroom shot. With: sink. Without: toilet, toothbrush.", {"sink": "affirmed",
         "toilet": "negated", "toothbrush": "negated"}),
        ("Snack table: pizza, cake. Left out: broccoli, carrots.", {"dining table": "affirmed",
         "pizza": "affirmed", "cake": "affirmed", "broccoli": "negated", "carrot": "negated"}),
        ("Pictured \u2713 a kite \u2713 a dog   Not pictured \u2717 a ball \u2717 a frisbee",
         {"kite": "affirmed", "dog": "affirmed", "sports ball": "negated",
          "frisbee": "negated"}),
        # what is excepted by a possessive is one of the kind denied
        ("not ONE car in the lot except mine, no trucks either", {"car": "affirmed",
         "truck": "negated"}),
        ("Sheep on the hillside; no shepherd, but his dog is there.", {"sheep": "affirmed",
         "person": "negated", "dog": "affirmed"}),
        ("On the table: pizza, fork. Not on the table or anywhere else: knife.",
         {"dining table": "affirmed", "pizza": "affirmed", "fork": "affirmed",
          "knife": "negated"}),
        ("This photo: mug, spoon. Not this photo: cake, fork.", {"cup": "affirmed",
         "spoon": "affirmed", "cake": "negated", "fork": "negated"}),
        # a second lack denied after "nor" is there too
        ("The pond is not without its ducks, nor without its boats; no people.",
         {"bird": "affirmed", "boat": "affirmed", "person": "negated"}),
        # "it isn't" after what a thing is like denies that, not the thing; after where it is,
        # the thing
        ("It's not that the fridge is empty - it isn't; there is no cake.",
         {"refrigerator": "affirmed", "cake": "negated"}),
        ("The dog seems to be there - it isn't.", {"dog": "negated"}),
        ("The train has not yet pulled into the station; a man waits.", {"train": "negated",
         "person": "affirmed"}),
        ("I'd be lying if I said there wasn't a kite in that tree. There's no kid, though.",
         {"kite": "affirmed", "person": "negated"}),
        ("I refuse to say there's no toaster in my kitchen. No oven, though.",
         {"toaster": "affirmed", "oven": "negated"}),
        ("Not one chair missing: eight chairs around the table. No laptop.",
         {"chair": "affirmed", "dining table": "affirmed", "laptop": "negated"}),
        # a clause that says what the contrasted thing does has it there
        ("The toddler naps on the bed, not the teddy bear, which sits on a chair; no book.",
         {"person": "affirmed", "bed": "affirmed", "teddy bear": "affirmed", "chair": "affirmed",
          "book": "negated"}),
        ("The cat sleeps on the sofa, not the dog, which is missing.",
         {"cat": "affirmed", "couch": "affirmed", "dog": "negated"}),
        ("The cat sleeps on the sofa, not the dog, who's out.",
         {"cat": "affirmed", "couch": "affirmed", "dog": "negated"}),
        ("Orange slices, no bowl.", {"orange": "affirmed", "bowl": "negated"}),
        # a denial of a denial: "I'm not saying there's no toilet", "not no dog" (but "ain't no
        # dogs" is none, in dialect)
        ("I'm not saying there's no toilet here - there is, under the ceiling - but no sink.",
         {"toilet": "affirmed", "sink": "negated"}),
        ("No, there's not no dog - he's right there. No cat.",
         {"dog": "affirmed", "cat": "negated"}),
        ("Look, there ain't no dogs in this picture, just a big ol' cat.",
         {"dog": "negated", "cat": "affirmed"}),
        ("Camping pic\nbackpack \u2013 yes\numbrella \u2013 nope\ndog \u2013 nope",
         {"backpack": "affirmed", "umbrella": "negated", "dog": "negated"}),
        ("dog: 1\ncat: 0\nball: 1\nperson: 0",
         {"dog": "affirmed", "cat": "negated", "sports ball": "affirmed", "person": "negated"}),
        ("Park scene:\n+ kite\n+ 4 people\n- dogs\n- bikes",
         {"kite": "affirmed", "person": "affirmed", "dog": "negated", "bicycle": "negated"}),
        ("The bathroom has: toilet, sink. It doesn't have: hair dryer, bathtub.",
         {"toilet": "affirmed", "sink": "affirmed", "hair drier": "negated"}),
        ("Shop window: handbags, ties. Not displayed: suitcases.",
         {"handbag": "affirmed", "tie": "affirmed", "suitcase": "negated"}),
        ("I see: a duck, a boat, a kid. I don't see: a dog.",
         {"bird": "affirmed", "boat": "affirmed", "person": "affirmed", "dog": "negated"}),
        ("Objects depicted: clock; three books. Not depicted: chair, bed.",
         {"clock": "affirmed", "book": "affirmed", "chair": "negated", "bed": "negated"}),
        ("Lot includes: tennis racket. Does NOT include or show: baseball bat.",
         {"tennis racket": "affirmed", "baseball bat": "negated"}),
        ("Shown = bench, bicycle; not shown = car, bus",
         {"bench": "affirmed", "bicycle": "affirmed", "car": "negated", "bus": "negated"}),
        ("Plus: toaster. Minus: microwave.", {"toaster": "affirmed", "microwave": "negated"}),
        ("Nothing's missing from the desk: laptop, mouse, keyboard. No phone.",
         {"laptop": "affirmed", "mouse": "affirmed", "keyboard": "affirmed",
          "cell phone": "negated"}),
        # "neither the keyboard nor the mouse is connected" has both; "neither a bus nor ..." none
        ("A man waits at the stop, and neither a bus nor a taxi is coming down the street.",
         {"person": "affirmed", "bus": "negated", "car": "negated"}),
        # a denying header over a bulleted list, a line that opens "no -", more header words
        ("In the shot:\n- a dog\n- grass\nWhat's not:\n- a ball\n- any people",
         {"dog": "affirmed", "sports ball": "negated", "person": "negated"}),
        ("Park, Sunday:\nyes \u2014 kite, dogs\nno \u2014 bikes, ball, benches",
         {"kite": "affirmed", "dog": "affirmed", "bicycle": "negated", "sports ball": "negated",
          "bench": "negated"}),
        ("A cat? No \u2014 a dog, asleep on the rug.", {"cat": "negated", "dog": "affirmed"}),
        ("Product photo includes: 1 suitcase. Does NOT include: handbag, umbrella.",
         {"suitcase": "affirmed", "handbag": "negated", "umbrella": "negated"}),
        ("Items visible \u2014 toilet, sink. Items absent \u2014 hair dryer, scissors.",
         {"toilet": "affirmed", "sink": "affirmed", "hair drier": "negated",
          "scissors": "negated"}),
        ("Horse absent \u2014 sheep everywhere.", {"horse": "negated", "sheep": "affirmed"}),
        ("Items shown: toaster, fridge. Items not shown: oven, sink.",
         {"toaster": "affirmed", "refrigerator": "affirmed", "oven": "negated", "sink": "negated"}),
        ("Room contains: couch, tv. Room lacks: bed.",
         {"couch": "affirmed", "tv": "affirmed", "bed": "negated"}),
        ("Harbor scene \u2014 has: boats, a bench; hasn't: people, surfboards.",
         {"boat": "affirmed", "bench": "affirmed", "person": "negated", "surfboard": "negated"}),
        # an answer after a bare list answers every item of it
        ("Train, platform, clock \u2014 yes. Commuters, benches \u2014 no.",
         {"train": "affirmed", "clock": "affirmed", "person": "negated", "bench": "negated"}),
        ("Cats, dogs - no. Birds - yes.", {"cat": "negated", "dog": "negated", "bird": "affirmed"}),
        # a denial's list ends where nothing closes it: no "or", "and" or place
        ("No cars or buses, bikes and a bench.",
         {"car": "negated", "bus": "negated", "bicycle": "affirmed", "bench": "affirmed"}),
        ("No cars, no buses, bikes, a bench.",
         {"car": "negated", "bus": "negated", "bicycle": "affirmed", "bench": "affirmed"}),
        ("No people, bench, pigeons.",
         {"person": "negated", "bench": "affirmed", "bird": "affirmed"}),
        ("no tv, couch yes, cat yes", {"tv": "negated", "couch": "affirmed", "cat": "affirmed"}),
        ("Bus, stop sign: yes. Cars, bicycles: no.",
         {"bus": "affirmed", "stop sign": "affirmed", "car": "negated", "bicycle": "negated"}),
        ("Bowl, cup: present. Fork, knife: absent.",
         {"bowl": "affirmed", "cup": "affirmed", "fork": "negated", "knife": "negated"}),
        ("Cats, dogs: none.", {"cat": "negated", "dog": "negated"}),
        ("There's not one dog but a pair; no cat.", {"dog": "affirmed", "cat": "negated"}),
        ("Not a single dog, but two cats. No birds.",
         {"dog": "negated", "cat": "affirmed", "bird": "negated"}),
        ("Farm stand: apples, lots; broccoli, sold out.",
         {"apple": "affirmed", "broccoli": "negated"}),
        ("Look for: kite, frisbee. You won't find: dogs, people.",
         {"kite": "affirmed", "frisbee": "affirmed", "dog": "negated", "person": "negated"}),
        ("apples \u2014 3\nbroccoli \u2014 obviously not",
         {"apple": "affirmed", "broccoli": "negated"}),
        # an ambiguous adjective before "nor" is the noun; "none left" after a name denies it
        ("Neither a remote nor a cell phone can be seen.",
         {"remote": "negated", "cell phone": "negated"}),
        ("Donuts: none left, but two cups.", {"donut": "negated", "cup": "affirmed"}),
        ("Apples in the bowl, none left on the tree.", {"apple": "affirmed", "bowl": "affirmed"}),
        ("A kid flies a kite, and no dogs are running on the sand.",
         {"person": "affirmed", "kite": "affirmed", "dog": "negated"}),
        ("No oven is running, and there is no microwave.",
         {"oven": "affirmed", "microwave": "negated"}),
        # a list's header that denies its items, wherever the list starts
        ("Photo shows: pizza, sandwich. Photo does not show: donut, cake.",
         {"pizza": "affirmed", "sandwich": "affirmed", "donut": "negated", "cake": "negated"}),
        ("Kitchen shot includes: oven, sink. Excludes: microwave, toaster.",
         {"oven": "affirmed", "sink": "affirmed", "microwave": "negated", "toaster": "negated"}),
        ("Items shown: 1 suitcase, 1 umbrella. Not shown (sold separately): backpack, tie.",
         {"suitcase": "affirmed", "umbrella": "affirmed", "backpack": "negated", "tie": "negated"}),
        ("On the towel: a book, a phone. Not packed: frisbee, ball.",
         {"book": "affirmed", "cell phone": "affirmed", "frisbee": "negated",
          "sports ball": "negated"}),
        ("At the gate: 1 airplane, 2 trucks. Nowhere in sight: bus, person.",
         {"airplane": "affirmed", "truck": "affirmed", "bus": "negated", "person": "negated"}),
        ("In the fridge: two bottles, a cake. Missing entirely: milk, broccoli.",
         {"refrigerator": "affirmed", "bottle": "affirmed", "cake": "affirmed",
          "broccoli": "negated"}),
        ("Gear laid out: skis, backpack. Left at home: sled, dog.",
         {"skis": "affirmed", "backpack": "affirmed", "dog": "negated"}),
        ("A wall full of clocks. What there isn't: a single customer.",
         {"clock": "affirmed", "person": "negated"}),
        ("with: toddler, teddy bear / without: dog, cat",
         {"person": "affirmed", "teddy bear": "affirmed", "dog": "negated", "cat": "negated"}),
        ("Left behind on the bench: a cup.", {"bench": "affirmed", "cup": "affirmed"}),
        ("There's: three kayaks / There's not: a swimmer, a surfboard",
         {"boat": "affirmed", "person": "negated", "surfboard": "negated"}),
        ("There is not a dog: a cat sleeps.", {"dog": "negated", "cat": "affirmed"}),
        ("Saddled horse, rider elsewhere.", {"horse": "affirmed", "person": "negated"}),
        ("A dog sleeps here and a cat sleeps elsewhere in the room.",
         {"dog": "affirmed", "cat": "affirmed"}),
        # tallies and marks set apart by slashes
        ("Dogs: 0 / cats: 2", {"dog": "negated", "cat": "affirmed"}),
        ("buses: 4 / cars: 0 / motorcycles: 0",
         {"bus": "affirmed", "car": "negated", "motorcycle": "negated"}),
        ("airplane \u2714 / truck \u2714 / bus \u2716 / people \u2716",
         {"airplane": "affirmed", "truck": "affirmed", "bus": "negated", "person": "negated"}),
        ("Benches: 3. Pigeons: none either.", {"bench": "affirmed", "bird": "negated"}),
        # a thing that names an event, a trade or a place for it
        ("Car wash, no car.", {"car": "negated"}),
        ("Dog show, but no dogs: rained out.", {"dog": "negated"}),
        ("Bench, bird bath, no birds.", {"bench": "affirmed", "bird": "negated"}),
        ("The cat shows no interest in the dog.", {"cat": "affirmed", "dog": "affirmed"}),
        # "no" after "only": more than that, not none of it; "and no," before its own denial
        ("Fruit bowl: bananas only? No \u2014 apples too. Oranges? None.",
         {"bowl": "affirmed", "banana": "affirmed", "apple": "affirmed", "orange": "negated"}),
        ("Two players rally. And no, there isn't a bench courtside.",
         {"person": "affirmed", "bench": "negated"}),
        ("A bench. People? No, there are no people.", {"bench": "affirmed", "person": "negated"}),
        # everyday and regional words
        ("No basin in this cloakroom, no wheelie case, and the zapper is nowhere to be found.",
         {"sink": "negated", "suitcase": "negated", "remote": "negated"}),
        ("A bus idles with no punters anywhere and no zookeeper in sight.",
         {"bus": "affirmed", "person": "negated"}),
        # an inventory's headers and answers: "nowhere to be found", an arrow, a bullet
        ("On the kerb: hydrant, stop sign. Nowhere to be found: cars, bikes.",
         {"fire hydrant": "affirmed", "stop sign": "affirmed", "car": "negated",
          "bicycle": "negated"}),
        ("TV: off. Couch: a cat and a remote. Dog: nowhere.",
         {"tv": "affirmed", "couch": "affirmed", "cat": "affirmed", "remote": "affirmed",
          "dog": "negated"}),
        ("Where is the dog? Nowhere to be seen.", {"dog": "negated"}),
        ("In the shot \u2192 kite, kid, dog. Not in the shot \u2192 frisbee, ball.",
         {"kite": "affirmed", "person": "affirmed", "dog": "affirmed", "frisbee": "negated",
          "sports ball": "negated"}),
        ("Pasture: cows 3 \u2022 horses 0 \u2022 sheep 0",
         {"cow": "affirmed", "horse": "negated", "sheep": "negated"}),
        ("Pasture: cows 3 \u00b7 horses 0", {"cow": "affirmed", "horse": "negated"}),
        ("The train isn't in yet: the tracks are empty.", {"train": "negated"}),
        ("The train isn't in yet, and a bench waits.", {"train": "negated", "bench": "affirmed"}),
        ("The dog is not in the kennel yet, it waits by a bench.",
         {"dog": "affirmed", "bench": "affirmed"}),
        # names joined by a slash are a list; a slash in a table's head denies nothing
        ("Sheep/cows: yes. Horses/dogs: no.",
         {"sheep": "affirmed", "cow": "affirmed", "horse": "negated", "dog": "negated"}),
        ("Present/absent \u2014 person: present; bicycle: absent; car: present; bus: absent.",
         {"person": "affirmed", "bicycle": "negated", "car": "affirmed", "bus": "negated"}),
        ("A dog and a ball. Missing from the scene: any sign of a cat.",
         {"dog": "affirmed", "sports ball": "affirmed", "cat": "negated"}),
        ("Room includes: bed, chair, clock. Not included and not pictured: TV, couch.",
         {"bed": "affirmed", "chair": "affirmed", "clock": "affirmed", "tv": "negated",
          "couch": "negated"}),
        # a participle after a determiner describes what the cue denies
        ("Hydrant, stop sign, parking meter, and not a single parked car.",
         {"fire hydrant": "affirmed", "stop sign": "affirmed", "parking meter": "affirmed",
          "car": "negated"}),
        ("Not one parked car.", {"car": "negated"}),
        ("No dog is left on the sofa, a cat sits.", {"dog": "negated", "couch": "affirmed",
                                                     "cat": "affirmed"}),
        ("Apples, oranges, bananas \u2014 and not a single carrot or head of broccoli.",
         {"apple": "affirmed", "orange": "affirmed", "banana": "affirmed", "carrot": "negated",
          "broccoli": "negated"}),
        ("The kitchen isn't missing an oven, nor is it missing a microwave, but no fridge.",
         {"oven": "affirmed", "microwave": "affirmed", "refrigerator": "negated"}),
        ("There isn't a table in this caf\u00e9 that doesn't have a cup on it; no laptop.",
         {"dining table": "affirmed", "cup": "affirmed", "laptop": "negated"}),
        ("Couch: free. Remote: lost.", {"couch": "affirmed", "remote": "negated"}),
        ("Cows, yes; horses, yes; sheep \u2014 not a one.",
         {"cow": "affirmed", "horse": "affirmed", "sheep": "negated"}),
        ("In the sink: a bowl, a cup. Not anywhere: a fork.",
         {"sink": "affirmed", "bowl": "affirmed", "cup": "affirmed", "fork": "negated"}),
        # the list before goes on: "and - no -" answers nothing
        ("Donuts, a hot dog, a sandwich, and \u2014 no \u2014 not a single slice of pizza.",
         {"donut": "affirmed", "hot dog": "affirmed", "sandwich": "affirmed",
          "pizza": "negated"}),
        ("A dog? No. A cat sleeps.", {"dog": "negated", "cat": "affirmed"}),
        ("Broccoli, carrots, and... no, no oranges.",
         {"broccoli": "affirmed", "carrot": "affirmed", "orange": "negated"}),
        ("Cars: parked. Bikes: locked. Pedestrians: nonexistent. Buses: none.",
         {"car": "affirmed", "bicycle": "affirmed", "person": "negated", "bus": "negated"}),
        ("Is the train at the platform? No, the platform is empty.", {"train": "negated",
                                                                      "person": "negated"}),
        ("The bus isn't empty \u2014 it's standing room only \u2014 and no bicycle.",
         {"bus": "affirmed", "person": "affirmed", "bicycle": "negated"}),
        ("She's the only one of the friends not holding an umbrella; there isn't a dog.",
         {"person": "affirmed", "umbrella": "affirmed", "dog": "negated"}),
        ("He's the only one on the court who isn't holding a racket; there isn't a ball.",
         {"person": "affirmed", "tennis racket": "affirmed", "sports ball": "negated"}),
        ("It isn't true that the stop sign is missing; the traffic light has been removed.",
         {"stop sign": "affirmed", "traffic light": "negated"}),
        ("There isn't a day this hydrant doesn't have a dog beside it; there's no cat, though.",
         {"fire hydrant": "affirmed", "dog": "affirmed", "cat": "negated"}),
        ("Nobody can say the pizza went unshared: there's not a fork on the table.",
         {"fork": "negated", "dining table": "affirmed"}),
        ("Nobody can say there is a dog here. A cat sleeps.", {"cat": "affirmed"}),
        ("Is there a cat? No. A dog? Also no.", {"cat": "negated", "dog": "negated"}),
        ("The pitch isn't missing its ball; it's missing its players \u2014 not one person.",
         {"sports ball": "affirmed", "person": "negated"}),
        ("The dog ran off; it is missing.", {"dog": "negated"}),
        ("The pasture is far from sheep-less, yet no sheepdog is anywhere around.",
         {"sheep": "affirmed", "dog": "negated"}),
        ("Neither is the enclosure without zebras, nor is there an elephant anywhere in it.",
         {"zebra": "affirmed", "elephant": "negated"}),
        ("The cow isn't hornless, nor is the barn without a horse, but there is no sheep.",
         {"cow": "affirmed", "horse": "affirmed", "sheep": "negated"}),
        ("No, the kite isn't missing \u2014 it's flying high \u2014 though, no, not a single "
         "person is in the frame.", {"kite": "affirmed", "person": "negated"}),
        ("No, there is no dog.", {"dog": "negated"}),
        ("A dog? Well, no.", {"dog": "negated"}),
        ("The room is not devoid of potted plants, nor is it devoid of books; no television.",
         {"potted plant": "affirmed", "book": "affirmed", "tv": "negated"}),
        ("Trains: 2. Platforms: packed. Buses: 0.",
         {"train": "affirmed", "person": "affirmed", "bus": "negated"}),
        ("A packed suitcase, no dog.", {"suitcase": "affirmed", "dog": "negated"}),
        ("No one could say the table is bare: a pizza, a salad bowl. Just no forks.",
         {"dining table": "affirmed", "pizza": "affirmed", "bowl": "affirmed",
          "fork": "negated"}),
        ("A person would be wrong to think this stable lacks horses. There's no cow in it.",
         {"horse": "affirmed", "cow": "negated"}),
        ("You'd be wrong to assume there's no dog: one naps by the door. No cat.",
         {"dog": "affirmed", "cat": "negated"}),
        ("Horse in the barn? Not today.", {"horse": "negated"}),
        ("Yes to the bench, no to the bird.", {"bench": "affirmed", "bird": "negated"}),
        ("There's not a chair in this lecture hall that isn't taken, and not a single laptop.",
         {"chair": "affirmed", "person": "affirmed", "laptop": "negated"}),
        ("It's not a room without a view, nor a room without a TV, but it is a room without a "
         "bed.", {"tv": "affirmed", "bed": "negated"}),
        ("Microwave blinking 0:00, no bowl in sight.", {"microwave": "affirmed",
                                                        "bowl": "negated"}),
        ("Trains, buses, cars: none in sight tonight; a lone cyclist rides through.",
         {"train": "negated", "bus": "negated", "car": "negated", "person": "affirmed"}),
        ("Kitchen: a toaster, a kettle. Mugs, cups: none.", {"toaster": "affirmed",
                                                              "cup": "negated"}),
        ("Any elephants? Just one. Any zebras? None.", {"elephant": "affirmed",
                                                        "zebra": "negated"}),
        ("No one could say the table isn't set: wine glasses, forks and knives are all out, "
         "though there's no bottle yet.", {"dining table": "affirmed", "wine glass": "affirmed",
                                           "fork": "affirmed", "knife": "affirmed",
                                           "bottle": "negated"}),
        # a count alone answers the question before it
        ("Sheep? Plenty. Cows? A few. Dogs? None. Horses? One.",
         {"sheep": "affirmed", "cow": "affirmed", "dog": "negated", "horse": "affirmed"}),
        ("Any cats? One dog sleeps on the sofa.", {"dog": "affirmed", "couch": "affirmed"}),
        ("There's a bowl in the microwave. The toaster is the thing that's missing.",
         {"bowl": "affirmed", "microwave": "affirmed", "toaster": "negated"}),
        ("A lone horse is the sole resident of the paddock, with no dogs around.",
         {"horse": "affirmed", "dog": "negated"}),
        ("The old man is the only resident left; no dog.", {"person": "affirmed", "dog":
                                                           "negated"}),
        # a face at a window is someone's, a clock's face is no one's
        ("Not one window of the train is without a face pressed to it; still, no luggage.",
         {"train": "affirmed", "person": "affirmed", "luggage": "negated"}),
        ("The clock face staring at me, no cat.", {"clock": "affirmed", "cat": "negated"}),
        # a denied lack: "not lacking", "nor does it lack"
        ("A table not lacking wine glasses, yet without a single bottle.",
         {"dining table": "affirmed", "wine glass": "affirmed", "bottle": "negated"}),
        ("The counter doesn't lack a toaster, nor does it lack a mug, but there is no fridge.",
         {"toaster": "affirmed", "cup": "affirmed", "refrigerator": "negated"}),
        # a lack denied by "hardly": "hardly lacking", "scarcely without"
        ("The pier is hardly lacking gulls, yet there isn't a boat in sight.",
         {"bird": "affirmed", "boat": "negated"}),
        ("The lounge hardly lacks chairs but has no table.",
         {"chair": "affirmed", "dining table": "negated"}),
        ("The square is scarcely without pigeons; no dogs though.",
         {"bird": "affirmed", "dog": "negated"}),
        ("Not a bench is without a pigeon, and no dogs.", {"bench": "affirmed", "bird": "affirmed",
                                                           "dog": "negated"}),
    ],
)  # fmt: skip
def test_analyze_resolves_every_name(text: str, expected: dict[str, str]) -> None:
    from negdata.detect.lexicon import lexicon_for
    from negdata.validate.negation import analyze

    assert analyze(text, lexicon_for("coco")) == expected


def test_a_negated_group_negates_each_of_its_labels_in_the_evaluation() -> None:
    from negdata.detect.lexicon import lexicon_for
    from negdata.validate.evaluate import label_polarity

    lexicon = lexicon_for("coco")
    predicted = analyze("No animals in the field, just a bench.", lexicon)
    assert label_polarity(predicted, "dog", lexicon) == "negated"
    assert label_polarity(predicted, "bench", lexicon) == "affirmed"
    assert label_polarity(predicted, "car", lexicon) == "unmentioned"
    affirmed_group = analyze("An animal on a bench.", lexicon)
    assert label_polarity(affirmed_group, "dog", lexicon) == "unmentioned"


def test_us_is_people_in_the_picture() -> None:
    """ "Three of us share a pizza": with no animal about, "us" names people, as "he" does."""
    from negdata.detect.lexicon import lexicon_for

    found = analyze("Three of us share a pizza, and there is no cake.", lexicon_for("coco"))
    assert found == {"person": "affirmed", "pizza": "affirmed", "cake": "negated"}


def test_a_bag_or_a_makers_name_covers_each_label_it_may_be() -> None:
    from negdata.detect.lexicon import lexicon_for

    lexicon = lexicon_for("coco")
    assert lexicon.members("bag") == {"backpack", "handbag", "suitcase"}
    assert lexicon.name("shoulder bag") == "handbag"  # a kind of bag names its label
    assert lexicon.members("ford") == {"car", "truck"}
