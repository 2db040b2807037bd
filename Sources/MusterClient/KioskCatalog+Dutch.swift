extension KioskCatalog {
    static func dutch(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · kiosk \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · inchecken · kiosk \(kiosk) =="
        case .waitingForEvent: "Deze kiosk wacht tot de organisator het evenement kiest."
        case .languageHint: languageHint
        case .languageChosen: "Taal: Nederlands."
        case .mainPrompt: "E-mail of ticketcode (of 'new' om u te registreren): "
        case .found(let name): "Gevonden: \(name)"
        case .confirmPrompt: "Bent u dit? Nu inchecken? [j/N] "
        case .notCheckedIn: "Niet ingecheckt."
        case .notFound:
            "Niet gevonden: geen ticket of e-mail komt overeen. Controleer de spelling, of typ 'new' om u te registreren."
        case .seeStaff(let seconds):
            "Opnieuw niet gevonden. Ga naar de balie. Een nieuwe poging kan over \(seconds) s."
        case .notValid(let name): "Ga naar de balie: \(name), dit ticket is niet geldig om in te checken."
        case .alreadyIn(let name, let time): "Al ingecheckt: \(name), om \(time)."
        case .checkedIn(let time): "Ingecheckt om \(time)."
        case .welcome(let first): first.isEmpty ? "Welkom!" : "Welkom, \(first)!"
        case .welcomeWord: "WELKOM"
        case .ticketCode(let code): "Uw ticketcode is \(code). Bewaar hem om opnieuw binnen te komen."
        case .scanAtReEntry: "Scan deze code om opnieuw binnen te komen:"
        case .notePrompt: "Laat een regel achter in het gastenboek (of druk op Enter om over te slaan): "
        case .noteSaved: "Dank u, uw bericht staat in het gastenboek."
        case .noteNotSaved: "Het bericht is niet opgeslagen."
        case .enjoy: "Veel plezier op het evenement!"
        case .registrationStart: "Registratie ter plaatse (laat de voornaam leeg om te annuleren)."
        case .firstNamePrompt: "Voornaam: "
        case .lastNamePrompt: "Achternaam: "
        case .lastNameRequired: "Achternaam (verplicht): "
        case .emailPrompt: "E-mail: "
        case .notAnEmail: "Dat lijkt geen e-mailadres."
        case .companyPrompt: "Bedrijf (optioneel): "
        case .registrationCancelled: "Registratie geannuleerd."
        case .emailRegistered: "Dit e-mailadres is al geregistreerd. Is het van u? Nu inchecken? [j/N] "
        case .failed(let detail): "Ga naar de balie: er is iets misgegaan (\(detail))."
        case .refused(let detail): "Niet ingecheckt: \(detail)"
        case .seeStaffDesk: "Niet ingecheckt. Ga naar de balie."
        case .doorRefused(.notFound): dutch(.notFound)
        case .doorRefused(.notLocked): dutch(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Niet ingecheckt: u bent al in deze ruimte."
        case .doorRefused(.outsideWindow): "Niet ingecheckt: inchecken is op dit moment niet mogelijk."
        case .doorRefused(.zoneFull):
            "Niet ingecheckt: deze ruimte is op dit moment vol. Wacht even of vraag het personeel."
        case .doorRefused(.entriesUsedUp): "Niet ingecheckt: met dit ticket kunt u niet meer naar binnen."
        case .doorRefused(.notAdmitted): "Ga naar de balie: dit ticket is niet geldig om in te checken."
        case .doorRefused(.reEntryRefused): "Niet ingecheckt: wie deze ruimte heeft verlaten, mag er niet opnieuw in."
        case .badgePrinting: "Uw badge wordt afgedrukt…"
        case .badgePrinted: "Uw badge is klaar: neem hem uit de printer."
        case .badgeNotPrinted: "Uw badge kon niet worden afgedrukt. Ga naar de balie."
        case .badgeAlreadyPrinted: "Er is al een badge voor u afgedrukt. Vraag aan de balie om een nieuwe."
        }
    }
}
