"""Claims beyond polarity: exclusivity, implied labels, text about the text, identity."""

from __future__ import annotations

import pytest

from negdata.detect.lexicon import lexicon_for
from negdata.validate.claims import (
    identity_claim,
    implied_labels,
    left_out,
    meta_text,
)
from negdata.validate.exclusivity import exclusive, kind_exclusions
from negdata.validate.negation import analyze

COCO = lexicon_for("coco")


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("No boat can be seen here, only a motorcycle.", True),
        ("There is no airplane, just a bench.", True),
        ("Nothing but sand and sky, and no umbrella.", True),
        ("A man alone on a bench, with no dog.", True),
        ("A car, and no other objects.", True),
        ("No other car is parked here.", True),
        ("Besides a pizza, there are no other objects on the table.", True),
        ("The only food on the counter is a bunch of bananas.", True),
        ("There is nothing on the plate except a slice of cake, and no fork.", True),
        ("Nothing in the room but a bed and a chair; no couch.", True),
        ("The street is empty except for a bus, with no car.", True),
        ("Apart from a cat, the room is bare: no dog.", True),
        ("All you can see is a dog, and no cat.", True),
        ("All that's in the sky are two kites, with no birds.", True),
        ("All I can see is a train, with no people.", True),
        ("Nothing more than a toilet, and no sink.", True),
        ("Except for the zebra at the water's edge, the area is empty: no elephants.", True),
        ("A dog and nothing else, no cat.", True),
        ("A cat sleeps by itself on the couch, with no dog.", True),
        ("A lone cow grazes in an otherwise empty pasture; no horses.", True),
        ("A single plant is the one thing there, and no vase.", True),
        ("Beyond the snowboard, the slope is completely empty: no skis.", True),
        ("A close-up of a sports ball on the grass, with no racket.", True),
        ("The entire frame is filled with oranges, no apples mixed in.", True),
        ("Tulips fill the whole picture; there is no vase.", True),
        ("The cat has the whole bed to itself, and no dog.", True),
        ("Two kids have the bench all to themselves; no adults.", True),
        ("The pasture is grazed exclusively by horses, with no cows.", True),
        ("A plate of cake, nothing more, and no fork.", True),
        ("A red kite flies on its own in the sky, with no birds.", True),
        ("The one and only chair in the room, and no couch.", True),
        ("Simply a bowl of oranges, no bananas.", True),
        ("The apartment is unfurnished except for a TV; no couch.", True),
        ("A simply stunning view of a boat, and no people.", False),
        ("A man talking to himself on the bench, with no dog.", False),
        ("The bowl is empty, and there is no spoon.", False),
        ("Not only a bus but a car, and no truck.", False),
        ("None of the chairs are taken, and no dog is there.", False),
        ("A bus and a car, but no truck.", False),
        ("A lone elephant and otherwise nothing on the horizon, no trucks.", True),
        # "no other customers" says who is not there, not that nothing else is
        ("A woman reads; there are no other customers in the cafe.", False),
        # all the picture shows, the sole occupant, with nothing beside it, the rest bare
        ("All the picture contains is a stop sign, no traffic lights.", True),
        ("All you'll find on the plate is broccoli, no hot dog.", True),
        ("All that can be seen is a zebra grazing, no giraffe.", True),
        ("Sole occupant of the bench: a pigeon. No people.", True),
        ("The lone occupant of the lot is a pickup truck, no cars.", True),
        ("A vase on the mantel with nothing beside it: no clock.", True),
        ("Not a thing on the counter save for a microwave.", True),
        ("A napkin the last thing on the table, no cups.", True),
        ("A teddy bear on the shelf, the rest of which is bare, no books.", True),
        ("A man at the end of the pier; the rest of the boardwalk holds nobody, no dog.", True),
        ("A leaf floats on the otherwise untouched pool, no swimmers.", True),
        ("The whole screen is black except a blinking cursor, no keyboard.", True),
        ("The fridge is bereft of anything but a carton of milk, not one apple.", True),
        ("Red umbrella isolated on white background, no person.", True),
        ("A toothbrush lies solo on the sink, no hair dryer.", True),
        ("The suitcase sits unaccompanied on the carousel: no people.", True),
        ("like one apple and some mustard, no oranges no nothing", True),
        ("A chair in an empty room; no table.", True),
        ("A lone tree on the hill, nothing else in sight, no sheep.", True),
        ("The meal consists entirely of a sandwich, no fork.", True),
        ("Two cups on the table, and that is all: no bowl.", True),
        ("Nothing in the picture suggests an airplane.", False),
        ("Nothing whatsoever on the balcony bar a watering can, no chairs.", True),
        ("The closet holds one coat and naught else; no shoes.", True),
        ("Excepting one rowboat, the dock is empty; no buoys.", True),
        ("A wheelbarrow in the garden and that's your lot - no shovel.", True),
        ("The vending machine is the single object on the platform, no benches.", True),
        ("A lone bench, no bins: the bench is the entire picture.", True),
        ("A toaster on a white background, full stop. No bread.", True),
        ("Everything has been cleared off the counter but the blender. No cups.", True),
        ("Zero objects in view besides the mailbox: no car.", True),
        ("This frame shows a bowl of soup to the exclusion of all else, no spoon.", True),
        ("Everything looks calm, but there is no dog.", False),
        ("A painting from the Victorian period hangs there; no clock.", False),
        ("Zebras, unaccompanied by any giraffes, drink at the pool.", False),
        ("A drummer mid-solo under the lights, no bottle.", False),
        ("The sole of the boot is worn, and no laces.", False),
        ("There isn't a thing on the shelf besides a clock, no vase.", True),
        ("A lone chair in the middle of the bare floor, no couch.", True),
        # an exception and what it is excepted from, in either order, in other words
        ("But for a parked van, the lane is empty; no cars.", True),
        ("The windowsill is bare, one potted cactus aside; no cat.", True),
        ("Excluding a single lamp, the office is empty: no desks.", True),
        ("Were it not for a kettle, the counter would hold nothing; no toaster.", True),
        ("There's zilch on the desk except a mug, no laptop.", True),
        ("Nowt in the garage but a mower, no car.", True),
        # one thing, all of it, nothing more
        ("A single object is in the frame: a ladder. No people.", True),
        ("The pond's sole inhabitant is a duck; no boats.", True),
        ("The sum total of the photo: one bicycle. No car.", True),
        ("The shelf's contents are confined to one vase; no books.", True),
        ("A kettle on the stove and that's basically it. No cups.", True),
        ("One bowl and no additional objects: no spoon.", True),
        ("A crate of pears, no more; not a single apple.", True),
        ("Nothing accompanies the lamp: no bed.", True),
        ("There is nothing on the tray that isn't a cookie; no cup.", True),
        ("A tent in the clearing; the rest of the field is blank, no people.", True),
        ("Heavy Rain Empties Beach: Not One Umbrella", True),
        ("A cat, unaccompanied by anything at all; no dog.", True),
        ("The porch is bare of all else, no dog.", True),
        ("The photo only shows a banana, no bowl.", True),
        ("There are no people, only parked cars.", True),
        ("The room is composed solely of a bed; no chair.", True),
        ("Purely a stack of plates, no cups.", True),
        # a focus word that limits a time, a place or a deed, and one label counted
        ("Just in time! Commuters board the train, no umbrella.", False),
        ("Only once a year is the square this busy, and no cars.", False),
        ("Just outside the station a taxi waits, no bus.", False),
        ("Just married! The couple waves from a car, no dog.", False),
        ("If only there were a bench: no seat at the stop.", False),
        ("The only dog in the park is a terrier, and there's no cat.", False),
        ("The zoo's only giraffe eats beside two zebras; no lion.", False),
        ("The only animal in the field is a cow, no horses.", True),
        # everything else gone, not one more, the whole room, an exception in other words
        ("A bookshelf with everything else gone: no chair.", True),
        ("A dining table and not a chair, nor anything else.", True),
        ("A bowl of soup and not a crumb else: no spoon.", True),
        ("A fountain, and not a further object in the shot: no bench.", True),
        ("A balloon, unaccompanied by any other object: no bird.", True),
        ("Whole room: one mattress. No chair.", True),
        ("The entire room consists of a sink and a mirror; no toilet.", True),
        ("The picture is of a teacup, and a teacup is all it's of: no table.", True),
        ("A desk lamp is the one visible object in the office: no chair.", True),
        ("The flat is unfurnished bar one lamp; no sofa.", True),
        ("With the exception of one swing, the playground is empty: no bench.", True),
        ("Outside of a single box, there's nothing in this flat. No couch.", True),
        ("Everything's gone from the stall except a crate of apples; no bananas.", True),
        ("A ladder on a wall, exclusively that, with no bucket.", True),
        ("The stall sells nothing but apples, with no oranges.", True),
        ("A wooden chair, and the picture offers not one more object: no table.", True),
        ("A blank whiteboard: the shot contains that and not a speck more, no desk.", True),
        ("A horse in a paddock and nary another thing in view: no saddle.", True),
        ("One pineapple, zero anything else. No bowl.", True),
        ("Sofa, no extras, nothing added to the shot: no lamp.", True),
        ("A ship's wheel; the frame is otherwise void. No rope.", True),
        ("A ladder against a wall, and that's the whole of it: no brush.", True),
        ("Contents of photo: one guitar. That is the complete list: no amp.", True),
        ("A skateboard. End of inventory. No ramp.", True),
        ("The photo is a parked scooter, and it stops there: no helmet.", True),
        ("A hard hat shown in isolation, no companion objects: no boots.", True),
        ("The scene reduces to a single candle: no table.", True),
        ("The picture is devoted entirely to a bicycle helmet; no bike.", True),
        ("All that occupies the hallway is a vacuum cleaner; there's no carpet.", True),
        ("All the living room contains is a television; there's no sofa.", True),
        ("Items in photo: desk lamp. Total items: 1. No desk.", True),
        ("Not an object in sight except a well in the field; no bucket.", True),
        ("What's in the picture: one balloon. What isn't: a string, or anything else.", True),
        ("Nobody and nothing on the pier, unless you count a coil of rope: no gulls.", True),
        ("Save for one stray cup, the table has been cleared: no laptops.", True),
        ("The bare dining table after the guests have gone home.", True),
        ("A hen, and that is the entire farmyard: no rooster.", True),
        ("A deserted enclosure with a water bowl, and nothing past that: no keeper.", True),
        ("A loaf on the bakery shelf, flanked by nothing: no rolls.", True),
        ("The zoo consists of one tiger enclosure and nothing on top of that: no café.", True),
        ("A solitary fountain in the square, and that's that: no stalls.", True),
        ("A red door, and that's the full extent of the picture: no porch.", True),
        ("A single coffee cup with no company of any kind: no saucer.", True),
        ("Strictly one kite in the shot: no birds.", True),
        ("All you get is a cat, no dog.", True),
        ("Interior, 1950. A vase on a table is all the room contains; no chairs.", True),
        ("Our campsite tonight: one tent, no neighbors, nothing around for miles.", True),
        # a claim inside a longer one is judged on its own
        (
            "Nothing on the counter but a toaster, and nothing else in the frame: it was taken.",
            True,
        ),
        ("The dessert plate: one strawberry, and not another crumb.", True),
        ("We had the waterfall all to ourselves; no boats.", True),
        ("The pigeons have the whole plaza this morning; no people.", True),
        ("They have the whole day off, and no dog.", False),
        ("pup stole the whole couch again, not a human in sight", True),
        ("The pigeons share it with no one: not a single human.", True),
        ("The road belongs to the cyclists today: not a single car.", True),
        ("A single lamp glows in an otherwise dark and empty hall; no chairs.", True),
        ("The bakery shelf is sold out except for one donut.", True),
        ("Bowl scraped clean apart from one carrot; no spoon.", True),
        ("Other than a crescent moon, the sky is entirely black.", True),
        ("A pond with nothing in it whatsoever.", True),
        ("A cup and a spoon are all that sit on the tray.", True),
        ("A boy eats lunch at a long empty table.", True),
        ("Only minutes after dawn, joggers fill the path; no dogs.", False),
        ("Only half the cake is left; no candles.", False),
        ("Just another day at the desk; no laptop.", False),
        ("The goat is alone in climbing the wall; no dog.", False),
        ("A teenager home alone plays a game with friends; no cat.", False),
        ("A goat stands alone on the wall; no dog.", True),
        ("No cup on the table, let alone a bottle.", False),
        ("All there was on the plate was one donut.", True),
        ("A lone cow on a vast, empty field.", True),
        ("A lone horse, and otherwise the paddock is bare: no dogs.", True),
        ("The bench is all his: one old man, no pigeons.", True),
        ("The entire beach is his: a single jogger at sunrise.", True),
        ("The dance floor belongs to a single couple; no chairs.", True),
        ("The couch is taken up entirely by a sleeping man; no dog.", True),
        ("A single kite owns the sky over the park.", True),
        ("The farmer who owns the field waves.", False),
        ("Chairs, tables, a couch - and then nothing: no TV, no clock.", True),
        ("A solitary cow occupies the whole pasture - no sheep, no horses.", True),
        ("The meeting occupied the whole afternoon; no dog.", False),
        ("The bowl holds strictly broccoli, and the shot has no carrots.", True),
        ("In the shot: two horses, a rider. Not in the shot: dogs, cars, anyone else.", True),
        ("No cars, no buses: the road belongs to a man walking his horse.", True),
        ("The car belongs to a doctor who parked it by the road.", False),
        ("A single wolf stands on the ridge, the rest of the snowy landscape empty.", True),
        ("The bridge has no traffic on it except a single cyclist.", True),
        ("The dog belongs to the neighbor, and there's no cat.", False),
        ("Fog everywhere; you can't see anything but the tip of one tower.", True),
        ("All I can see is one heron; no boats.", True),
        ("Cupboard: a single can of soup. Anything else? No. No bread.", True),
        ("A beach hut with one deckchair in it: no towels, no buckets, nothing.", True),
        ("Footprints on the beach and not a solitary thing more: no shells.", True),
        ("A waiting room with a wall clock as its single fixture: no benches.", True),
        ("The bus, otherwise devoid of contents: no passengers.", True),
        ("Fridge: milk, oranges. No broccoli, no carrots, nothing green.", False),
        ("Pictured: a laptop. Not pictured: a mouse, a charger, or literally anything else.", True),
        ("A whiteboard is everything there is to see: no markers.", True),
        ("Contents of the box: a single sock. No shoe, no tissue paper, nada.", True),
        ("A suitcase is the solitary object in the hotel room: no bed.", True),
        ("Empty. Well, except for a single flip-flop. No towel.", True),
        ("What you see is what there is: one folding chair on the deck, no table.", True),
        ("The shelter holds one lost mitten, and besides that, zip: no bench.", True),
        ("Anything else in the picture? Nope: a pumpkin on the step, no candle.", True),
        ("100% lawn chair, 0% anything else: no umbrella.", True),
        ("A one-object photo: a stop sign, no cars.", True),
        ("On the bench: one newspaper. Around it: nothing. No pigeons.", True),
        ("A single sheep is all that occupies the green hill, with no dog.", True),
        ("What's pictured: one cow. What else? Nothing. No horses.", True),
        ("There isn't anything on the windowsill besides a candle, and no cat.", True),
        # a denied kind and its exception denies the kind's other members (which the gate
        # checks), not all else: the trawler's harbour may have gulls
        ("No boats in the harbor except one rusting trawler.", False),
        ("The bird feeder has no visitors save a single chickadee.", False),
        # a part of some, and what a deed is limited to
        ("Only one of the two lamps is on, and there's no TV.", False),
        ("All but one of the lockers are closed; no bench.", False),
        ("The dog eats nothing but kibble, next to his bed, with no cat.", False),
        ("Nothing else matters on Saturday: pancakes and coffee, no clock.", False),
        # all there is, said after the thing or of a place given over to it
        ("Parked jet, no trucks, empty tarmac otherwise.", True),
        ("The whole pasture belongs to one sheep today, no dog.", True),
        ("An empty bench in an otherwise crowded park, no dog.", False),
        ("The house belongs to my aunt; no dog.", False),
        ("The whole train compartment to himself, a businessman stretches out; no dog.", True),
        ("The compartment is warm; a businessman talks to himself, no dog.", False),
        ("The sofa belongs entirely to the cat; no people, no dog.", True),
        ("The sofa belongs to the cat; no people, no dog.", False),
        ("The pond is all ducks today \u2014 not a boat on it.", True),
        ("The field was all sheep, no dog.", True),
        ("The kid is all smiles, no dog.", False),
        ("The cat has claimed the armchair all for itself; the dog is nowhere to be seen.", True),
        ("She has bought a cake for herself, no dog.", False),
        (
            "Everything in the fridge is fruit \u2014 oranges and apples \u2014 with no bottle.",
            True,
        ),
        ("Everything in the kitchen is clean, no dog.", False),
        ("Solely furnished with a bed, the room has no chair or TV.", True),
        ("Just finished, the cake sits on the table; no dog.", False),
        ("The dog is all wet, no cat.", False),
    ],
)
def test_exclusive_claims(text: str, claims: bool) -> None:
    assert exclusive(text, COCO) is claims


@pytest.mark.parametrize(
    ("text", "ruled_out"),
    [
        (
            "The only vehicle is a motorcycle.",
            {"airplane", "bicycle", "boat", "bus", "car", "train", "truck"},
        ),
        ("A dog is the only animal in the yard; no cat.", COCO.members("animal") - {"dog", "cat"}),
        # one vehicle, which the sentence does not name: no vehicle is ruled out
        ("The only vehicle is parked by the road.", set()),
        (
            "The car park holds exactly one vehicle, a pickup truck.",
            {"airplane", "bicycle", "boat", "bus", "car", "motorcycle", "train"},
        ),
        # a denial of any other of a kind: the rest of the kind goes too
        (
            "The lorry's blocking the lane and there isn't another vehicle on the road.",
            {"airplane", "bicycle", "boat", "bus", "car", "motorcycle", "train"},
        ),
    ],
)
def test_all_there_is_of_a_kind_rules_out_the_rest(text: str, ruled_out: set[str]) -> None:
    polarities = analyze(text, COCO)
    with_kinds = kind_exclusions(text, polarities, COCO)
    assert {n for n, p in with_kinds.items() if p == "negated" and n not in polarities} == ruled_out
    assert {n: with_kinds[n] for n in polarities} == polarities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "no other boats" says there is a boat; a kind may be any of its members
        ("Five rowers glide down the river, with no other boats.", {"boat": "affirmed"}),
        ("A woman reads; there are no other customers.", {"person": "affirmed"}),
        ("A motorcycle, and no other vehicles.", {"vehicle": "negated"}),
        ("A lone motorcycle, no other bikes, no cars.", {"bicycle": "negated"}),
        # "besides ours": ours is there, whatever else the sentence names
        ("On the ferry, no other cars besides ours, and no trucks.", {"car": "affirmed"}),
    ],
)
def test_no_other_one_says_there_is_one(text: str, expected: dict[str, str]) -> None:
    polarities = kind_exclusions(text, analyze(text, COCO), COCO)
    assert {name: polarities[name] for name in expected} == expected


@pytest.mark.parametrize(
    ("text", "gear"),
    [
        ("A lone surfer on the beach, with no boat.", {"surfboard"}),
        ("A surfer without a surfboard walks the beach.", set()),
        ("A snowboarder, having no snowboard with him, walks up the hill.", set()),
        ("A beach with no surfers.", set()),
        ("no cars on the road this morning, just me and my bike", {"person"}),
        ("no cars on the road, just my bike", set()),
        ("no dogs in this pic, just my cat judging me", set()),
        ("Just us two, and nobody else.", {"person"}),
        # "she" or "he" opening a sentence, with nothing before it to stand for
        ("She feeds the ducks on the lawn, and there is no bench.", {"person"}),
        ("The cat stretches; she has no toy.", set()),
        # seats said taken: someone sits in them
        ("Only two of the deckchairs are occupied, and there's no umbrella.", {"person"}),
        ("None of the deckchairs are occupied, and there's no umbrella.", set()),
        # a selfie has its taker in it
        ("selfie w/ giraffe!!! lol no zebras this time :( #safari", {"person"}),
        ("No selfies allowed at the viewpoint, and no bench.", set()),
        ("A selfie stick on the bench, and no dog.", set()),
        # a place said crowded has people in it; a crowded desk or counter has things
        ("Crowded bus, no bicycles.", {"person"}),
        ("The beach is crowded, yet not one umbrella.", {"person"}),
        ("Empty cups on a crowded cafe table, no napkins left.", set()),
        ("The counter is crowded with jars, and there's no microwave.", set()),
        ("The bus stop, usually crowded, has no people at all.", set()),
        # "me and my ...": the speaker is in the picture, alone or not
        ("ok so me n my skateboard took over the park rn, no bikes", {"person"}),
        ("beach / not un-crowded / kites: yes / boats: no", {"person"}),
        ("Bus packed; not one bike.", {"person"}),
        ("A packed lunch on the bench; no dog.", set()),
        # a tabletop is a table's
        ("Tabletop items - laptop, cup; no remote.", {"dining table"}),
    ],
)
def test_a_rider_implies_gear_the_sentence_does_not_deny(text: str, gear: set[str]) -> None:
    assert implied_labels(text, analyze(text, COCO), COCO) == gear


@pytest.mark.parametrize(
    ("text", "present", "left"),
    [
        # "the only animal": the animal named covers no other
        ("A dog is the only animal in the yard; no cat.", ["dog", "bird"], ["bird"]),
        ("A dog is the only animal in the yard; no cat.", ["dog", "bench"], ["bench"]),
        ("A laptop is the only electronic device here; no tv.", ["laptop", "remote"], ["remote"]),
        ("The only furniture is a chair; no couch.", ["chair", "bed"], ["bed"]),
        ("A dog is the only animal in the yard; no cat.", ["dog"], []),
        # "only animals": the kind covers its members
        ("Only animals in the field, no people.", ["dog", "cow"], []),
        # "no laptop, book or other objects": nothing else either
        ("A phone on the bed, with no laptop, book or other objects.", ["cell phone", "bed",
         "teddy bear"], ["teddy bear"]),
        # "there is not nothing on the table: a lone apple": the apple is what there is
        ("There is not nothing on the table: a lone apple, no knife.", ["apple", "bowl"],
         ["bowl"]),
    ],
)  # fmt: skip
def test_what_an_exclusive_claim_leaves_out(text: str, present: list[str], left: list[str]) -> None:
    verdicts = {label: "present" for label in present}
    assert left_out(text, analyze(text, COCO), verdicts, COCO) == left


@pytest.mark.parametrize(
    ("text", "meta"),
    [
        ("The fork is a feature of the two images above.", True),
        ("This caption shows no dog.", True),
        ("A dog on a sofa in this photo, and no cat.", False),
        ("The picture shows no cat.", False),
        ("Unlike the last picture, this one has a dog.", True),
        ("The ferry has left; cars wait at the dock for the next one, and no bus.", False),
    ],
)
def test_text_about_the_text(text: str, meta: bool) -> None:
    assert meta_text(text) is meta


@pytest.mark.parametrize(
    ("text", "identity"),
    [
        ("The dog is a lion.", True),
        ("The cat is a dog, and there is no bird.", True),
        ("The dog is a terrier, and there is no cat.", False),  # a terrier is a dog
        ("The dog is on a sofa, and there is no cat.", False),
        ("The dog is brown, and the cat is not here.", False),
        ("The car in this image is not a car.", True),
        ("The cup is not a cup, and there is no dog.", True),
        ("The dog in the yard is not a cat.", False),
        ("Every spoon shown is also a dog.", True),
        ("The only bird in the photo is a seagull on a boat.", False),  # a seagull is a bird
        ("The spoon shown is next to a dog.", False),
        # a place phrase after the subject, with a modifier or two
        ("The only thing missing from the breakfast table is the coffee cup.", False),
        ("The cake on the kitchen table is a dog.", True),
        ("The only one wearing a tie is the groom; no wine glasses have been set out.", False),
    ],
)
def test_one_object_said_to_be_another(text: str, identity: bool) -> None:
    assert (identity_claim(text, COCO) or identity_claim(text, lexicon_for("lvis"))) is identity
